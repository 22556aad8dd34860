import { t } from 'elysia'
import { channelSchema } from '../channels/schema.ts'
import { Int } from '../http/schema.ts'

// Bodies and answers of the Test button, the Deliveries tab and redeliver.

const statusSchema = (options?: { error: string }) =>
  t.Union([t.Literal('succeeded'), t.Literal('failed'), t.Literal('gave_up'), t.Literal('pending')], options)
const StatusValue = statusSchema()
// A delivery's, or an attempt's: `pending` while an attempt is due or running.
export type DeliveryStatus = typeof StatusValue.static

const ErrorText = t.Union([t.String(), t.Null()])

// Rate-limited attempts of a series that do not count in its retry schedule: past them, a
// receiver that keeps answering 429 spends the schedule like any failure (and still gets the
// wait it asks for), so a delivery always ends.
export const FREE_RATE_LIMITED_ATTEMPTS = 10

export const TestFields = t.Object({ pseudo: t.Optional(t.String({ maxLength: 64, error: 'pseudo must be a player name of at most 64 characters' })) })
export const TestBody = t.Optional(t.Nullable(TestFields))

export const TestResult = t.Object({
  channel: channelSchema(),
  status: t.Union([t.Literal('succeeded'), t.Literal('failed')]),
  error: ErrorText,
  durationMs: Int(),
})
export type TestResult = typeof TestResult.static

export const TestResponse = t.Object({ ok: t.Literal(true), results: t.Array(TestResult) })

export const AttemptItem = t.Object({
  id: t.String(), deliveryId: t.String(), voteId: t.Union([t.String(), t.Null()]), pseudo: t.String(),
  channel: channelSchema(), test: t.Boolean(), attempt: Int(),
  seriesAttempt: Int({ description: 'the attempt\'s place in the retry schedule of its series: a redeliver starts a new series at 1 while `attempt` goes on; a rate-limited attempt does not advance it' }),
  rateLimited: t.Boolean({ description: `the receiver asked to wait (Discord's 429 with retry_after): the next attempt waits as long, and this one is not counted in the schedule (up to ${FREE_RATE_LIMITED_ATTEMPTS} per series)` }),
  redelivery: t.Boolean({ description: 'the attempt belongs to a series started by Redeliver' }),
  status: StatusValue,
  error: ErrorText, httpStatus: t.Union([Int(), t.Null()]), durationMs: t.Union([Int(), t.Null()]),
  startedAt: t.String(), nextAttemptAt: t.Union([t.String(), t.Null()]),
})

export const AttemptQuery = t.Object({
  limit: t.Optional(t.String()),
  before: t.Optional(t.String()),
  channel: t.Optional(channelSchema({ error: 'channel must be "votifier", "webhook" or "discord"' })),
  status: t.Optional(statusSchema({ error: 'status must be one of succeeded, failed, gave_up, pending' })),
})

export const AttemptPage = t.Object({
  ok: t.Literal(true),
  deliveries: t.Array(AttemptItem),
  next: t.Union([t.String(), t.Null()]),
  attemptsPerSeries: Int({ description: 'attempts in a full series: 1 + the retries of deliveries.retry_delays (8 by default)' }),
})

export const RedeliverParams = t.Object({ slug: t.String(), id: t.String() })

export const Redelivered = t.Object({
  ok: t.Literal(true),
  delivery: t.Object({
    id: t.String(), channel: channelSchema(), status: t.Literal('pending'),
    nextAttempt: Int(), nextAttemptAt: t.String(),
  }),
})
