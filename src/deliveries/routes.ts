import { Elysia } from 'elysia'
import { ownerAuth } from '../accounts/guard.ts'
import type { SessionDeps } from '../accounts/session.ts'
import { clientAddress } from '../http/client-ip.ts'
import { pageParams } from '../http/paging.ts'
import { enforceRateLimit, type RateLimiter } from '../http/rate-limit.ts'
import { errorAnswer, iso, isoOrNull } from '../http/schema.ts'
import { Invalid, ServerErrors } from '../accounts/schema.ts'
import { refuseUnknownFields } from '../http/strict-body.ts'
import { checkPseudo } from '../servers/pseudo.ts'
import type { ServersRepo } from '../servers/repo.ts'
import { SlugParams } from '../servers/schema.ts'
import { ownedServer } from '../servers/service.ts'
import type { AttemptRow } from './repo.ts'
import { AttemptPage, AttemptQuery, FREE_RATE_LIMITED_ATTEMPTS, RedeliverParams, Redelivered, TestBody, TestFields, TestResponse } from './schema.ts'
import { redeliver, sendTestVotes, type AuditedDeliveryDeps } from './service.ts'

export type DeliveryRoutesDeps = AuditedDeliveryDeps & SessionDeps & {
  store: { servers: ServersRepo }
  limits: { testVotes: RateLimiter }
}

const TEST_PSEUDO = 'VotelistTest'

const itemOf = (r: AttemptRow) => ({ ...r, id: String(r.id), startedAt: iso(r.startedAt), nextAttemptAt: isoOrNull(r.nextAttemptAt) })

// The owner's view of notifications: the Test button, the Deliveries tab, and sending a delivery
// again. Saving the webhook and Votifier settings lives with the server settings.
export const deliveryRoutes = (rt: DeliveryRoutesDeps) =>
  new Elysia({ name: 'deliveries.routes' })
    .use(ownerAuth(rt))
    .post('/api/v1/me/servers/:slug/test', async ({ user, params, body, request, server: socket, set }) => {
      const srv = await ownedServer(rt.store.servers, user, params.slug)
      const pseudo = checkPseudo(body?.pseudo ?? TEST_PSEUDO, srv.edition)
      // Each test connects to the owner's targets: limits.test_votes_per_minute per server.
      Object.assign(set.headers, await enforceRateLimit(rt.limits.testVotes, srv.id, rt.clock.now()))
      const results = await sendTestVotes(rt, srv, pseudo, clientAddress(request, socket, rt.config.http.trust_proxy), { actor: user, server: srv })
      return { ok: true as const, results }
    }, {
      owner: true,
      params: SlugParams,
      body: TestBody,
      transform: refuseUnknownFields(TestFields, {}, { nullable: true }),
      response: {
        200: TestResponse, ...Invalid('pseudo not a valid name for the server\'s edition, an unknown field, or a body that is not a JSON object'), ...ServerErrors(),
        409: errorAnswer('CONFLICT: no channel is configured (reason NO_CHANNEL).'), 429: errorAnswer('RATE_LIMITED: over limits.test_votes_per_minute for this server; Retry-After says when to try again.'),
      },
      detail: {
        summary: 'Send a test vote on every channel',
        description: `Sends a trial vote now on every configured channel (Votifier, webhook and Discord) at once and answers each outcome. The vote's pseudo is \`${TEST_PSEUDO}\` unless the body gives \`{"pseudo": "…"}\`; the voter address sent is the caller's. The webhook receives \`"event":"test"\` (header \`X-TSM-Event: test\`) and Discord a message titled "Test vote"; a Votifier listener cannot tell a test from a vote. Recorded in the Deliveries tab with \`test: true\`; never retried, never counted as a vote. 409 when no channel is configured. At most \`limits.test_votes_per_minute\` (default 10) tests a minute per server, with the RateLimit headers; past it 429 \`RATE_LIMITED\` with \`Retry-After\`.`,
        tags: ['Owner: notifications'],
      },
    })
    .get('/api/v1/me/servers/:slug/deliveries', async ({ user, params, query }) => {
      const srv = await ownedServer(rt.store.servers, user, params.slug)
      const { limit, before } = pageParams(query)
      const rows = await rt.store.deliveries.attempts(srv.id, before, limit + 1, { channel: query.channel, status: query.status })
      const page = rows.slice(0, limit)
      return {
        ok: true as const,
        deliveries: page.map(itemOf),
        next: rows.length > limit ? String(page[page.length - 1].id) : null,
        attemptsPerSeries: 1 + rt.config.deliveries.retry_delays.length,
      }
    }, {
      owner: true,
      params: SlugParams,
      query: AttemptQuery,
      response: { 200: AttemptPage, ...Invalid('limit, before, channel or status malformed'), ...ServerErrors() },
      detail: {
        summary: 'List delivery attempts (the Deliveries tab)',
        description: 'One item per attempt, newest first. `limit` 1–200 (default 50); pass `next` back as `before` for the following page (`null`: no more), with the same filters. Filters: `channel` (`votifier`, `webhook` or `discord`) and `status` of the attempt. `status` of an attempt: `pending` (in progress), `succeeded`, `failed` (a retry is scheduled at `nextAttemptAt`; for a test, nothing follows) or `gave_up` (the last attempt of the schedule failed, the webhook answered 410, or Discord answered 404, 401 or 400). `seriesAttempt` of `attemptsPerSeries` is the "attempt n of 8" of the Deliveries tab (a redeliver starts a new series); `rateLimited`: Discord answered 429, the next attempt waits its `retry_after` and this one does not count (up to ' + FREE_RATE_LIMITED_ATTEMPTS + ' per series).',
        tags: ['Owner: notifications'],
      },
    })
    .post('/api/v1/me/servers/:slug/deliveries/:id/redeliver', async ({ user, params }) => {
      const srv = await ownedServer(rt.store.servers, user, params.slug)
      const d = await redeliver(rt, srv, params.id, { actor: user, server: srv })
      return { ok: true as const, delivery: { ...d, nextAttemptAt: isoOrNull(d.nextAttemptAt)! } }
    }, {
      owner: true,
      params: RedeliverParams,
      response: { 200: Redelivered, ...ServerErrors('no server with this slug, or no delivery with this id on it'), 409: errorAnswer('CONFLICT: a test (TEST_NOT_RESENT), an attempt in progress (ATTEMPT_IN_PROGRESS), a series already waiting (ALREADY_QUEUED) or a channel no longer configured (CHANNEL_REMOVED).') },
      detail: {
        summary: 'Send a delivery again',
        description: 'Queues a new series of attempts for a delivery (`id` is the `deliveryId` of a Deliveries item), whatever its status: the first at once, then the whole retry schedule, with the current settings. Attempt numbers continue from the last one. 409 for a test, while an attempt is in progress, while the delivery already waits for the first attempt of a series (a redeliver sent twice: the vote is sent once), or when the channel is no longer configured.',
        tags: ['Owner: notifications'],
      },
    })
