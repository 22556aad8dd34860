import type { Config } from '../config/load.ts'
import { use, type Awaitable, type StoreWrites, type TxScript } from '../db/store.ts'
import { invalidParameter } from '../http/errors.ts'
import { checkInteger, iso } from '../http/schema.ts'
import type { LiveKey } from '../keys/repo.ts'
import { ipKey } from '../net/ip.ts'
import { monthOf } from '../servers/month.ts'
import { checkPseudo, pseudoKey } from '../servers/pseudo.ts'
import type { RankingRepo } from '../servers/repo.ts'
import type { FoundVote, VerificationRepo } from './repo.ts'
import type { CheckResult, ClaimResult, ServerStatistics, VoteList } from './schema.ts'

// What the keyed verification API answers: check, claim, the vote list and the server's
// statistics. Plain functions of the repos and the time; no HTTP here.

interface VerificationTx {
  verification: VerificationRepo
}

export interface VerificationDeps {
  config: Config
  store: VerificationTx & StoreWrites<VerificationTx> & { ranking: RankingRepo }
}

export const DEFAULT_WINDOW_MINUTES = 120
export const LIST_MAX_AGE_MS = 7 * 24 * 3600_000
export const DEFAULT_LIST_LIMIT = 100

// `window` and `duration` are one parameter under two names.
export function searchWindow(window: number | undefined, duration: number | undefined): number {
  checkInteger(window, 'window', 1, 1440)
  checkInteger(duration, 'duration', 1, 1440)
  if (window !== undefined && duration !== undefined && window !== duration) {
    throw invalidParameter('window and duration are the same parameter under two names; give one of them (or both with the same value)')
  }
  return window ?? duration ?? DEFAULT_WINDOW_MINUTES
}

// A vote is inside a window of W minutes when it is less than W minutes old, so a vote exactly
// one interval old is outside the default window, the same moment the player may vote again.
const windowStart = (now: number, minutes: number) => now - minutes * 60_000 + 1

// The address as a plugin has it from the player's connection. A zone (`%eth0`) names an
// interface of the machine that saw an address, nothing of the player, and spaces around the
// value are a caller's mistake: both are refused, not read past as the address-reading of
// sockets and headers (ipKey) does.
function ipKeyOf(ip: string): string {
  const key = ip.includes('%') || ip.trim() !== ip ? null : ipKey(ip)
  if (key === null) throw invalidParameter('ip must be an IPv4 or IPv6 address', 'ip')
  return key
}

export interface CheckQuery {
  pseudo?: string
  ip?: string
  window?: number
  duration?: number
}

// The most recent vote inside the window by that pseudo, from that address (IPv4 exact,
// IPv4-mapped as IPv4, IPv6 by /64, any address recorded with the vote), or both at once. The
// answer is synchronous when the repository's is: this is the API's hottest path.
export function checkVote(deps: VerificationDeps, key: LiveKey, q: CheckQuery, now: number): Awaitable<CheckResult> {
  return runCheck(deps, planCheck(deps, key, q, now))
}

// What a check will look for, or the INVALID_PARAMETER error it answers; reads nothing.
export interface CheckPlan {
  serverId: string
  pseudo: string | undefined // as asked
  name: string | null // its key
  ip: string | null // the address's key
  since: number
  minutes: number
}

export function planCheck(deps: VerificationDeps, key: LiveKey, q: CheckQuery, now: number): CheckPlan {
  const minutes = searchWindow(q.window, q.duration)
  if (q.pseudo === undefined && q.ip === undefined) throw invalidParameter('pseudo or ip is required')
  return {
    serverId: key.serverId,
    pseudo: q.pseudo,
    name: q.pseudo === undefined ? null : pseudoKey(checkPseudo(q.pseudo, key.edition)),
    ip: q.ip === undefined ? null : ipKeyOf(q.ip),
    since: windowStart(now, minutes),
    minutes,
  }
}

export function runCheck(deps: VerificationDeps, plan: CheckPlan): Awaitable<CheckResult> {
  const votes = deps.store.verification
  const { serverId, name, ip, since } = plan
  const found = ip === null ? votes.latestByPseudo(serverId, name!, since)
    : name === null ? votes.latestByIp(serverId, ip, since)
    : votes.latestByPseudoAndIp(serverId, name, ip, since)
  // No closure on the plain path (SQLite): see check-route.ts.
  return found instanceof Promise ? foundLater(deps, plan, found) : checkResult(deps, plan, found)
}

const foundLater = (deps: VerificationDeps, plan: CheckPlan, found: Promise<FoundVote | null>) => found.then((vote) => checkResult(deps, plan, vote))

function checkResult(deps: VerificationDeps, plan: CheckPlan, vote: FoundVote | null): CheckResult {
  if (!vote) return { ok: true, hasVoted: false, pseudo: plan.pseudo ?? null, votedAt: null, nextVoteAt: null, claimed: false, window: plan.minutes }
  return {
    ok: true,
    hasVoted: true,
    pseudo: plan.pseudo ?? vote.pseudo,
    votedAt: iso(vote.createdAt),
    nextVoteAt: iso(vote.createdAt + deps.config.votes.interval_minutes * 60_000),
    claimed: vote.claimedAt !== null,
    window: plan.minutes,
  }
}

// Claims the OLDEST unclaimed vote of the pseudo inside the window, in one write transaction, so
// that concurrent claims, from this process or another, serialise: each vote is claimed exactly
// once.
export function claimVote(deps: VerificationDeps, key: LiveKey, q: { pseudo: string; window?: number; duration?: number }, now: number): Promise<ClaimResult> {
  const minutes = searchWindow(q.window, q.duration)
  const name = pseudoKey(checkPseudo(q.pseudo, key.edition))
  const since = windowStart(now, minutes)
  return deps.store.write(function* (tx): TxScript<ClaimResult> {
    const vote = yield* use(tx.verification.claimOldest(key.serverId, name, since, now))
    if (vote) return { ok: true, claimed: true, vote: { id: vote.id, pseudo: vote.pseudo, votedAt: iso(vote.createdAt) } }
    return { ok: true, claimed: false, reason: (yield* use(tx.verification.latestByPseudo(key.serverId, name, since))) ? 'ALREADY_CLAIMED' : 'NO_VOTE' }
  })
}

// A space before the offset is its "+" sent unencoded, which a query string reads as a space.
const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+ -]\d{2}(?::?\d{2})?)?$/

// An ISO 8601 date-time to milliseconds. Without a zone it is UTC (every time in this API is).
// Digits past the millisecond are dropped: votes are stored to the millisecond.
export function parseTimestamp(text: string): number | null {
  const m = ISO_TIMESTAMP.exec(text)
  if (!m) return null
  const [y, mo, d, h, mi, s = 0] = m.slice(1, 7).map((v) => Number(v ?? 0))
  const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3))
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  const back = new Date(0)
  back.setUTCFullYear(y, mo - 1, d)
  back.setUTCHours(h, mi, s, ms)
  const t = back.getTime()
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null
  const zone = m[8]
  if (!zone || zone === 'Z' || zone === 'z') return t
  const digits = zone.replace(':', '')
  const offset = (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0)) * 60_000
  return zone[0] === '-' ? t + offset : t - offset
}

// Votes after `since` (exclusive), oldest first. `since` defaults to, and is clamped to, seven
// days ago. created_at is unique and strictly increasing per server, so passing `next` back as
// `since` never skips or repeats a vote.
export async function listVotes(deps: VerificationDeps, key: LiveKey, q: { since?: string; limit?: number }, now: number): Promise<VoteList> {
  const oldest = now - LIST_MAX_AGE_MS
  let since = oldest
  if (q.since !== undefined) {
    const t = parseTimestamp(q.since)
    if (t === null) throw invalidParameter('since must be an ISO 8601 timestamp such as 2026-11-22T10:15:30.123Z', 'since')
    since = Math.max(t, oldest)
  }
  const limit = checkInteger(q.limit, 'limit', 1, 1000) ?? DEFAULT_LIST_LIMIT
  const rows = await deps.store.verification.after(key.serverId, since, limit)
  return {
    ok: true,
    votes: rows.map((v) => ({ id: v.id, pseudo: v.pseudo, createdAt: iso(v.createdAt), claimed: v.claimed })),
    next: iso(rows.length ? rows[rows.length - 1].createdAt : since),
  }
}

// Rank, votes and top 10 voters of a UTC month (default: the current one). rank is null while
// the server is off the public ranking (hidden, or unlisted for want of proven ownership) or
// was not listed yet in that month.
export async function serverStatistics(deps: VerificationDeps, key: LiveKey, month: string | undefined, now: number): Promise<ServerStatistics> {
  const current = monthOf(now)
  const m = month ?? current
  if (m > current) throw invalidParameter(`month must not be after the current month (${current})`, 'month')
  const { ranking } = deps.store
  return {
    ok: true,
    server: { id: key.serverId, slug: key.slug, name: key.name },
    month: m,
    rank: (await ranking.rankOf(key.serverId, m))?.rank ?? null,
    monthlyVotes: await ranking.monthVotes(key.serverId, m),
    totalVotes: await ranking.totalVotes(key.serverId),
    topVoters: await ranking.topVoters(key.serverId, m, 10),
  }
}
