import { Elysia } from 'elysia'
import type { Clock } from '../clock.ts'
import { keyedAuth, type KeyedDeps } from '../http/api-key.ts'
import { checkVote, claimVote, listVotes, serverStatistics, type VerificationDeps } from './verification.ts'
import { toInteger } from '../http/query.ts'
import { CheckQuery, CheckResult, ClaimQuery, ClaimResult, ListQuery, responsesDoc, ServerQuery, ServerStatistics, VoteList } from './verification-schema.ts'

const TEXT = { 'content-type': 'text/plain; charset=utf-8' }
const text = (body: string) => new Response(body, { headers: TEXT })

const LIMITS = 'Keyed: every answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (600 requests per key over any 60 seconds).'

// The verification API: what an owner's plugin or website polls, with the server's API key.
export const verificationRoutes = (deps: VerificationDeps & KeyedDeps & { clock: Clock }) =>
  new Elysia({ name: 'votes.verification', prefix: '/api/v1' })
    .use(keyedAuth(deps))
    .get('/votes/check', ({ query, apiKey }) => {
      const r = checkVote(deps, apiKey, { pseudo: query.pseudo, ip: query.ip, window: toInteger(query.window), duration: toInteger(query.duration) }, deps.clock.now())
      return query.format === 'text' ? text(r.hasVoted ? '1' : '0') : r
    }, {
      keyed: true,
      query: CheckQuery,
      detail: {
        responses: responsesDoc(CheckResult, { description: '`1`: voted inside the window; `0`: not.', example: '1' }),
        summary: 'Has this player voted?',
        tags: ['Verification'],
        description: 'Reports the most recent vote inside the window (default 120 minutes) matching `pseudo`, `ip`, or both: with both, one vote must match both. Neither: 400. '
          + 'Does not change anything; `claimed` shows whether the vote was claimed. With `format=text` the body is `1` or `0` (text/plain). ' + LIMITS
          + '\n\nExample: `curl -H "X-Api-Key: vlk_…" "https://list.example/api/v1/votes/check?pseudo=Steve"`',
      },
    })
    .post('/votes/claim', ({ query, apiKey }) => {
      const r = claimVote(deps, apiKey, { pseudo: query.pseudo, window: toInteger(query.window), duration: toInteger(query.duration) }, deps.clock.now())
      return query.format === 'text' ? text(r.claimed ? '1' : '0') : r
    }, {
      keyed: true,
      query: ClaimQuery,
      detail: {
        responses: responsesDoc(ClaimResult, { description: '`1`: this call claimed a vote; `0`: it did not.', example: '1' }),
        summary: 'Claim a vote (one reward per vote)',
        tags: ['Verification'],
        description: 'Marks the OLDEST unclaimed vote of `pseudo` inside the window (`window`/`duration`, default 120 minutes) as claimed, atomically: '
          + 'however many claims race, each vote is claimed exactly once. No request body. `claimed:false` comes with `reason` '
          + '`ALREADY_CLAIMED` (every vote in the window is claimed) or `NO_VOTE` (none). Still HTTP 200. With `format=text`: `1` claimed by this call, else `0`. ' + LIMITS
          + '\n\nExample: `curl -X POST -H "Authorization: Bearer vlk_…" "https://list.example/api/v1/votes/claim?pseudo=Steve"`',
      },
    })
    .get('/votes', ({ query, apiKey }) => listVotes(deps, apiKey, { since: query.since, limit: toInteger(query.limit) }, deps.clock.now()), {
      keyed: true,
      query: ListQuery,
      detail: {
        responses: responsesDoc(VoteList),
        summary: 'Votes received since a time',
        tags: ['Verification'],
        description: 'Votes created after `since` (exclusive), oldest first, at most `limit` (1–1000, default 100). `since` defaults to and is clamped to 7 days ago. '
          + 'Call again with `since` = `next` until `votes` is empty: vote times are unique and strictly increasing per server, so no vote is skipped or repeated. ' + LIMITS
          + '\n\nExample: `curl "https://list.example/api/v1/votes?key=vlk_…&since=2026-11-22T10:15:30.123Z&limit=500"`',
      },
    })
    .get('/server', ({ query, apiKey }) => serverStatistics(deps, apiKey, query.month, deps.clock.now()), {
      keyed: true,
      query: ServerQuery,
      detail: {
        responses: responsesDoc(ServerStatistics),
        summary: 'Rank, monthly votes and top voters of the key\'s server',
        tags: ['Verification'],
        description: 'Statistics of the server the key belongs to for a UTC month (default: the current one): rank among listed servers, votes in the month, votes of all time and the top 10 voters. ' + LIMITS
          + '\n\nExample: `curl -H "X-Api-Key: vlk_…" "https://list.example/api/v1/server"`',
      },
    })
