import { Elysia } from 'elysia'
import type { Clock } from '../clock.ts'
import { then } from '../db/store.ts'
import { keyedAuth, type KeyedDeps } from '../keys/api-key.ts'
import { toInteger } from '../http/schema.ts'
import { checkVote, claimVote, listVotes, serverStatistics, type VerificationDeps } from './service.ts'
import { CheckQuery, CheckResult, ClaimQuery, ClaimResult, ListQuery, responsesDoc, ServerQuery, ServerStatistics, VoteList } from './schema.ts'

const TEXT = { 'content-type': 'text/plain; charset=utf-8' }
const text = (body: string) => new Response(body, { headers: TEXT })

// The OpenAPI `detail` of a verification endpoint: what it does, the limits, one curl example.
const doc = (summary: string, description: string, example: string, responses: ReturnType<typeof responsesDoc>) => ({
  summary,
  tags: ['Verification'],
  description: `${description} Every answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset `
    + '(600 requests per key over any 60 seconds by default), and Cache-Control: no-store, errors included: no cache may keep an answer.'
    + `\n\nExample: \`${example}\``,
  responses,
})

// The verification API: what an owner's plugin or website polls, with the server's API key.
export const verificationRoutes = (deps: VerificationDeps & KeyedDeps & { clock: Clock }) =>
  new Elysia({ name: 'verification.routes', prefix: '/api/v1' })
    .use(keyedAuth(deps))
    .get('/votes/check', ({ query: q, apiKey }) =>
      then(checkVote(deps, apiKey, { pseudo: q.pseudo, ip: q.ip, window: toInteger(q.window), duration: toInteger(q.duration) }, deps.clock.now()),
        (r) => (q.format === 'text' ? text(r.hasVoted ? '1' : '0') : r)), {
      keyed: true,
      query: CheckQuery,
      detail: doc('Has this player voted?',
        'Reports the most recent vote inside the window (default 120 minutes) matching `pseudo`, `ip`, or both: with both, one vote must match both; '
        + 'neither is 400. Changes nothing: `claimed` tells whether that vote was claimed. With `format=text` the body is `1` or `0` (text/plain).',
        'curl -H "X-Api-Key: vlk_…" "https://list.example/api/v1/votes/check?pseudo=Steve"',
        responsesDoc(CheckResult, { description: '`1`: voted inside the window; `0`: not.', example: '1' })),
    })
    .post('/votes/claim', async ({ query: q, apiKey }) => {
      const r = await claimVote(deps, apiKey, { pseudo: q.pseudo, window: toInteger(q.window), duration: toInteger(q.duration) }, deps.clock.now())
      return q.format === 'text' ? text(r.claimed ? '1' : '0') : r
    }, {
      keyed: true,
      query: ClaimQuery,
      detail: doc('Claim a vote (one reward per vote)',
        'Marks the OLDEST unclaimed vote of `pseudo` inside the window (`window`/`duration`, default 120 minutes) as claimed, atomically: '
        + 'however many claims race, each vote is claimed exactly once. No request body. `claimed:false` comes with `reason` '
        + '`ALREADY_CLAIMED` (every vote in the window is claimed) or `NO_VOTE` (none), still HTTP 200. With `format=text`: `1` when this call claimed a vote, else `0`.',
        'curl -X POST -H "Authorization: Bearer vlk_…" "https://list.example/api/v1/votes/claim?pseudo=Steve"',
        responsesDoc(ClaimResult, { description: '`1`: this call claimed a vote; `0`: it did not.', example: '1' })),
    })
    .get('/votes', ({ query: q, apiKey }) => listVotes(deps, apiKey, { since: q.since, limit: toInteger(q.limit) }, deps.clock.now()), {
      keyed: true,
      query: ListQuery,
      detail: doc('Votes received since a time',
        'Votes created after `since` (exclusive), oldest first, at most `limit` (1–1000, default 100). `since` defaults to and is clamped to 7 days ago. '
        + 'Call again with `since` = `next` until `votes` is empty: vote times are unique and strictly increasing per server, so no vote is skipped or repeated.',
        'curl "https://list.example/api/v1/votes?key=vlk_…&since=2026-11-22T10:15:30.123Z&limit=500"',
        responsesDoc(VoteList)),
    })
    .get('/server', ({ query: q, apiKey }) => serverStatistics(deps, apiKey, q.month, deps.clock.now()), {
      keyed: true,
      query: ServerQuery,
      detail: doc('Rank, monthly votes and top voters of the key\'s server',
        'Statistics of the server the key belongs to for a UTC month (default: the current one): rank among listed servers, votes in the month, '
        + 'votes of all time and the top 10 voters of the month.',
        'curl -H "X-Api-Key: vlk_…" "https://list.example/api/v1/server"',
        responsesDoc(ServerStatistics)),
    })
