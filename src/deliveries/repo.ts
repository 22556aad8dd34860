import type { Channel } from '../channels/schema.ts'
import type { Awaitable } from '../db/store.ts'
import type { DeliveryStatus } from './schema.ts'

// What every attempt of a vote's delivery sends, frozen when the vote is recorded: channel
// encoders (Votifier payload, webhook body) are built from it.
export interface VoteEvent {
  server: { id: string; slug: string; name: string }
  vote: { id: string; pseudo: string; createdAt: number }
  address: string | null
  monthlyVotes: number
}

// A delivery as recorded with its vote (or its test).
export interface NewDelivery {
  id: string
  serverId: string
  voteId: string | null
  channel: Channel
  test: boolean
  pseudo: string
  payload: VoteEvent
  at: number
}

export interface Delivery extends Omit<NewDelivery, 'at'> {
  status: DeliveryStatus
  attempts: number
  seriesStart: number // the first attempt of the current series (1, or where a redeliver began)
  nextAttemptAt: number | null
  createdAt: number
}

// One row of the Deliveries tab: an attempt with its delivery's fields.
export interface AttemptRow {
  id: number
  deliveryId: string
  voteId: string | null
  pseudo: string
  channel: Channel
  test: boolean
  attempt: number
  // The attempt's place in the retry schedule of its series (a redeliver starts a new one at 1);
  // rate-limited attempts do not advance it.
  seriesAttempt: number
  rateLimited: boolean // the receiver asked to wait (Discord's 429): not counted in the schedule
  redelivery: boolean // its series was started by a redeliver
  status: DeliveryStatus
  error: string | null
  httpStatus: number | null
  durationMs: number | null
  startedAt: number
  nextAttemptAt: number | null
}

// Filters of the Deliveries tab; absent = any.
export interface AttemptFilter {
  channel?: Channel
  status?: DeliveryStatus
}

// An attempt about to be made: of delivery `deliveryId`, in the series that began at attempt
// `series`, at `at`.
export interface AttemptStart {
  deliveryId: string
  series: number
  at: number
}

export interface StartedAttempt {
  id: number
  attempt: number
  seriesAttempt: number
  rateLimited: number
}

// An attempt's outcome, and the delivery's status after it, as of `at`.
export interface AttemptEnd {
  attemptId: number
  deliveryId: string
  status: Exclude<DeliveryStatus, 'pending'>
  rateLimited: boolean
  error: string | null
  httpStatus: number | null
  durationMs: number
  nextAttemptAt: number | null
  at: number
}

// The delivery queue at a glance (test deliveries left out): waiting for their first attempt,
// failed and waiting for a retry, and given up since a time.
export interface QueueCounts {
  pending: number
  retrying: number
  gaveUp: number
}

export interface DeliveriesRepo {
  insert(d: NewDelivery): Awaitable<void>
  get(id: string): Awaitable<Delivery | null>
  // Writes each attempt row 'pending' (before anything is sent) and counts it on its delivery,
  // after the delivery's last attempt as the row is now; an attempt left 'pending' by a process
  // that died is closed first, as interrupted. Answers, in the same order, the attempt row's id
  // and number, its place in the series' schedule and how many attempts of the series were rate
  // limited before it; or null where the delivery is gone, has ended, or has begun another series
  // (a redeliver): no attempt is due from that series any more. A delivery may appear once.
  startAttempts(starts: AttemptStart[]): Awaitable<(StartedAttempt | null)[]>
  // Closes each attempt with its outcome and sets its delivery's status and next attempt time, as
  // long as it is still the delivery's latest attempt, in its current series. An attempt that
  // outlived its job's lease (its process paused) may have been followed by another, begun by the
  // runner that claimed the job again, which closed it as interrupted: its outcome, coming late,
  // is then left out, and what the later attempt records stands (its job too: a settlement only
  // acts under its own claim's lease). One closed as interrupted by a start (closeInterrupted),
  // with no attempt begun since, takes its outcome, then known.
  endAttempts(ends: AttemptEnd[]): Awaitable<void>
  // Closes the attempts still pending that started before `startedBefore`, as cut short by a
  // process that is gone (and fails the tests created before it). Queued deliveries are retried
  // by their jobs; a test has no job and just failed. Returns how many attempts were closed.
  closeInterrupted(at: number, startedBefore: number): Awaitable<number>
  attemptInProgress(id: string): Awaitable<boolean>
  // A new series of attempts (a redeliver), starting at attempt `seriesStart`, the one after the
  // delivery's last. False (nothing written) when another attempt has begun meanwhile, or that
  // series was already started (a second redeliver): on PostgreSQL another instance may do either
  // between redeliver's check and this write.
  startSeries(id: string, seriesStart: number, at: number): Awaitable<boolean>
  // Newest first; `before` is an attempt id (exclusive).
  attempts(serverId: string, before: number, limit: number, filter?: AttemptFilter): Awaitable<AttemptRow[]>
  queueCounts(gaveUpSince: number): Awaitable<QueueCounts>
}

export const INTERRUPTED = 'interrupted: votelist stopped during this attempt, so its outcome is unknown (a queued delivery is tried again)'

// Job kind that performs one attempt of a delivery; its payload is a DeliveryJob.
export const DELIVERY_JOB = 'delivery'
