import { t, type TSchema } from 'elysia'
import { ErrorBody, Int, queryInteger } from '../http/schema.ts'

// Schemas of the verification API. The query schemas validate every request; the response
// schemas are what the OpenAPI document at /api/docs shows (through responsesDoc below) and what
// the tests hold every answer to. They are not checked per request: on these polled endpoints
// Elysia's response encode+clean+check cost about a quarter of the check endpoint's time.

const Timestamp = (description: string) => t.String({ format: 'date-time', description })

const key = t.Optional(t.String({ description: 'The API key. May instead be sent as header `X-Api-Key` or `Authorization: Bearer <key>`; when several are sent they must be equal (else 400).' }))
const pseudo = (error: string) => t.String({ minLength: 1, maxLength: 64, error, description: 'Player name, matched case-insensitively. Must be a valid name for the server\'s edition (3–16 of A–Z, a–z, 0–9, _; Bedrock also inner spaces and one leading . or *), else 400.', examples: ['Steve'] })
const window = t.Optional(queryInteger('window', 1, 1440, 'Search window in minutes, 1 to 1440 (digits only); default 120. `duration` is the same parameter under another name: give one, or both with the same value.'))
const duration = t.Optional(queryInteger('duration', 1, 1440, 'Synonym of `window`.'))
const format = (what: string) => t.Optional(t.UnionEnum(['json', 'text'], { error: 'format must be json or text', description: `\`text\`: the body is ${what} as text/plain instead of JSON. Errors are then one line of text with the same status.` }))

export const CheckQuery = t.Object({
  pseudo: t.Optional(pseudo('pseudo must be a player name of at most 64 characters')),
  ip: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'Voter address, IPv4 or IPv6. IPv4 matches exactly, `::ffff:a.b.c.d` is the IPv4 address, IPv6 matches any address in the same /64. A vote matches when any address recorded with it matches. The address alone: with a zone (`%eth0`) or spaces around it, 400.', examples: ['203.0.113.7'] })),
  window, duration,
  format: format('`1` (voted) or `0` (not voted)'),
  key,
})

export const ClaimQuery = t.Object({ pseudo: pseudo('pseudo is required: a player name of at most 64 characters'), window, duration, format: format('`1` (this call claimed a vote) or `0`'), key })

export const ListQuery = t.Object({
  since: t.Optional(t.String({ description: 'ISO 8601 date-time, exclusive (a zone-less time is UTC). Default, and lower bound: 7 days ago (older values are clamped). Pass the previous `next` to continue.', examples: ['2026-11-22T10:15:30.123Z'] })),
  limit: t.Optional(queryInteger('limit', 1, 1000, 'Votes per page, 1 to 1000; default 100.')),
  key,
})

export const ServerQuery = t.Object({
  month: t.Optional(t.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', error: 'month must be a month written YYYY-MM', description: 'UTC month YYYY-MM, not after the current one; default the current month. Past months stay queryable.', examples: ['2026-11'] })),
  key,
})

export const CheckResult = t.Object({
  ok: t.Literal(true),
  hasVoted: t.Boolean({ description: 'A vote matches inside the window.' }),
  pseudo: t.Nullable(t.String({ description: 'The `pseudo` asked for; when checked by `ip` alone, the pseudo of the vote found, else null.' })),
  votedAt: t.Nullable(Timestamp('Time of the most recent matching vote inside the window.')),
  nextVoteAt: t.Nullable(Timestamp('votedAt + the site\'s vote interval: when the player may vote again.')),
  claimed: t.Boolean({ description: 'Whether that vote has been claimed (false when there is none).' }),
  window: Int({ description: 'The search window used, in minutes.' }),
}, {
  description: 'The most recent matching vote inside the window. With format=text: `1` or `0`.',
  examples: [{ ok: true, hasVoted: true, pseudo: 'Steve', votedAt: '2026-11-22T10:15:30.123Z', nextVoteAt: '2026-11-22T12:15:30.123Z', claimed: false, window: 120 }],
})

export const ClaimResult = t.Union([
  t.Object({
    ok: t.Literal(true),
    claimed: t.Literal(true),
    vote: t.Object({ id: t.String(), pseudo: t.String(), votedAt: Timestamp('Time of the vote.') }),
  }),
  t.Object({
    ok: t.Literal(true),
    claimed: t.Literal(false),
    reason: t.UnionEnum(['ALREADY_CLAIMED', 'NO_VOTE'], { description: '`ALREADY_CLAIMED`: every vote of the pseudo inside the window is claimed; `NO_VOTE`: none inside the window.' }),
  }),
], {
  description: 'claimed is true when THIS call claimed a vote; reward the player then, and only then.',
  examples: [
    { ok: true, claimed: true, vote: { id: '019a8f5e-7c1b-7d3e-9a4f-0b1c2d3e4f50', pseudo: 'Steve', votedAt: '2026-11-22T10:15:30.123Z' } },
    { ok: true, claimed: false, reason: 'ALREADY_CLAIMED' },
  ],
})

export const VoteList = t.Object({
  ok: t.Literal(true),
  votes: t.Array(t.Object({ id: t.String(), pseudo: t.String(), createdAt: Timestamp('Vote time; unique and strictly increasing per server.'), claimed: t.Boolean() })),
  next: Timestamp('createdAt of the last vote returned, or the effective `since` when none: pass it back as `since`.'),
}, {
  description: 'Votes after `since`, oldest first.',
  examples: [{ ok: true, votes: [{ id: '019a8f5e-7c1b-7d3e-9a4f-0b1c2d3e4f50', pseudo: 'Steve', createdAt: '2026-11-22T10:15:30.123Z', claimed: true }], next: '2026-11-22T10:15:30.123Z' }],
})

export const ServerStatistics = t.Object({
  ok: t.Literal(true),
  server: t.Object({ id: t.String(), slug: t.String(), name: t.String() }),
  month: t.String({ description: 'The UTC month reported, YYYY-MM.' }),
  rank: t.Nullable(Int({ description: '1-based position by votes in the month; ties go to the server whose latest vote came first, then to the older listing. Null while the server is off the public ranking: hidden by an administrator, or not listed for want of proven ownership (docs/admins.md, "Proven ownership").' })),
  monthlyVotes: Int({ description: 'Votes in the month.' }),
  totalVotes: Int({ description: 'Votes of all time.' }),
  topVoters: t.Array(t.Object({ pseudo: t.String(), votes: Int() }), { description: 'Top 10 voters of the month, most votes first (ties: who reached it first).' }),
}, {
  examples: [{ ok: true, server: { id: '019a8f5e-0000-7000-8000-000000000001', slug: 'emerald-valley', name: 'Emerald Valley' }, month: '2026-11', rank: 3, monthlyVotes: 120, totalVotes: 4521, topVoters: [{ pseudo: 'Steve', votes: 31 }, { pseudo: 'Alex', votes: 24 }] }],
})

const limitHeaders = {
  'RateLimit-Limit': { description: 'Requests allowed per 60 seconds for this key.', schema: { type: 'integer' as const } },
  'RateLimit-Remaining': { description: 'Requests left in the current 60 seconds.', schema: { type: 'integer' as const } },
  'RateLimit-Reset': { description: 'Seconds until the oldest counted request leaves the window.', schema: { type: 'integer' as const } },
}

const errorResponse = (description: string, extraHeaders = {}) => ({
  description,
  headers: { ...limitHeaders, ...extraHeaders },
  content: { 'application/json': { schema: ErrorBody }, 'text/plain': { schema: { type: 'string' as const }, example: 'INVALID_PARAMETER: window must be an integer from 1 to 1440' } },
})

// The OpenAPI responses of a keyed endpoint: its answer (and, where format=text applies, the
// text form), and the errors every keyed endpoint can give.
export function responsesDoc(ok: TSchema, text?: { description: string; example: string }) {
  return {
    200: {
      description: ok.description ?? 'Success.',
      headers: limitHeaders,
      content: {
        'application/json': { schema: ok },
        ...(text ? { 'text/plain': { schema: { type: 'string' as const, enum: ['1', '0'], description: text.description }, example: text.example } } : {}),
      },
    },
    400: errorResponse('INVALID_PARAMETER: a parameter is missing, malformed or out of range, or given several times with different values; the message names it.'),
    401: { ...errorResponse('MISSING_KEY: no key given; INVALID_KEY: the key is unknown or revoked (a revoked key stops working within one second).'), headers: { 'WWW-Authenticate': { schema: { type: 'string' as const } } } },
    429: errorResponse('RATE_LIMITED: over limits.keyed_per_minute (default 600) requests in the last 60 seconds for this key.', {
      'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' as const } },
    }),
  }
}

export type CheckResult = typeof CheckResult.static
export type ClaimResult = typeof ClaimResult.static
export type VoteList = typeof VoteList.static
export type ServerStatistics = typeof ServerStatistics.static
