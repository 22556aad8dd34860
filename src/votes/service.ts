import type { Database } from 'bun:sqlite'
import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import { writeTx } from '../db/open.ts'
import type { ChannelsRepo } from '../channels/repo.ts'
import type { DeliveriesRepo } from '../deliveries/repo.ts'
import { queueDeliveries } from '../deliveries/service.ts'
import { ApiError } from '../http/errors.ts'
import { newId } from '../ids.ts'
import type { JobQueue } from '../jobs/queue.ts'
import { ipKey } from '../net/ip.ts'
import type { VoteTarget } from '../servers/repo.ts'
import { checkPseudo, pseudoKey } from '../servers/pseudo.ts'
import type { VotesRepo } from './repo.ts'

export interface VoteDeps {
  db: Database
  votes: VotesRepo
  channels: ChannelsRepo
  deliveries: DeliveriesRepo
  queue: JobQueue
  clock: Clock
  config: Config
}

export interface RecordedVote {
  vote: { id: string; pseudo: string; createdAt: number }
  nextVoteAt: number
}

// Records a vote and queues one delivery per configured channel in ONE transaction, before the
// voter is told it worked: an acknowledged vote is never lost and its notifications are never
// forgotten. The interval applies per server to the pseudo and to every recorded address.
// `addresses`: the voter's addresses (the connecting one first); non-addresses are ignored.
export function recordVote(deps: VoteDeps, server: VoteTarget, pseudo: string, addresses: (string | null)[]): RecordedVote {
  return writeTx(deps.db, () => writeVote(deps, server, pseudo, addresses))
}

// recordVote's work without its transaction, for a caller that holds one and keeps the call
// atomic (the group commit, as a 'bare' write). A refused vote throws before writing anything.
export function writeVote(deps: VoteDeps, server: VoteTarget, pseudo: string, addresses: (string | null)[]): RecordedVote {
  const name = checkPseudo(pseudo, server.edition)
  const key = pseudoKey(name)
  const seen = new Map<string, string>()
  for (const a of addresses) {
    const k = a ? ipKey(a) : null
    if (k && !seen.has(k)) seen.set(k, a!)
  }
  const ipKeys = [...seen.keys()]
  const intervalMs = deps.config.votes.interval_minutes * 60_000
  const now = deps.clock.now()
  const recent = deps.votes.recent(server.id, key, ipKeys, now - intervalMs + 1)
  const last = Math.max(recent.byPseudo ?? -Infinity, recent.byAddress ?? -Infinity)
  if (last > -Infinity) {
    const next = last + intervalMs
    throw new ApiError(429, 'VOTE_TOO_SOON',
      `${recent.byPseudo !== null ? 'this pseudo has' : 'this address has'} already voted for ${server.name}; the next vote is possible at ${new Date(next).toISOString()}`,
      { nextVoteAt: new Date(next).toISOString() }, { 'Retry-After': String(Math.ceil((next - now) / 1000)) })
  }
  // created_at is strictly increasing per server, even for votes within one millisecond.
  const createdAt = Math.max(now, (recent.lastAt ?? -1) + 1)
  const vote = { id: newId(), serverId: server.id, pseudo: name, pseudoKey: key, createdAt }
  const monthlyVotes = deps.votes.insert(vote, [...seen].map(([ipKey, address]) => ({ ipKey, address })))

  const address = seen.values().next().value ?? null
  queueDeliveries(deps, { server: { id: server.id, slug: server.slug, name: server.name }, vote: { id: vote.id, pseudo: name, createdAt }, address, monthlyVotes }, now)
  return { vote: { id: vote.id, pseudo: name, createdAt }, nextVoteAt: createdAt + intervalMs }
}
