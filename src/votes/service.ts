import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import { use, type StoreWrites, type TxScript } from '../db/store.ts'
import type { DeliveriesTx } from '../deliveries/attempt.ts'
import { queueDeliveries } from '../deliveries/service.ts'
import { ApiError } from '../http/errors.ts'
import { newId } from '../ids.ts'
import { ipKey } from '../net/ip.ts'
import { checkPseudo, pseudoKey } from '../servers/pseudo.ts'
import type { VoteTarget } from '../servers/repo.ts'
import type { VotesRepo } from './repo.ts'
import type { TargetTx } from './targets.ts'

export interface VoteTx extends DeliveriesTx, TargetTx {
  votes: VotesRepo
}

export interface VoteDeps {
  store: VoteTx & StoreWrites<VoteTx>
  clock: Clock
  config: Config
}

export interface VoteInput {
  server: VoteTarget
  pseudo: string
  // The voter's addresses (the connecting one first); non-addresses are ignored.
  addresses: (string | null)[]
}

export interface RecordedVote {
  vote: { id: string; pseudo: string; createdAt: number }
  nextVoteAt: number
}

// Records a vote and queues one delivery per configured channel in ONE transaction, before the
// voter is told it worked: an acknowledged vote is never lost and its notifications are never
// forgotten. The interval applies per server to the pseudo and to every recorded address.
export const recordVote = (deps: VoteDeps, server: VoteTarget, pseudo: string, addresses: (string | null)[]): Promise<RecordedVote> =>
  deps.store.write((tx) => writeVote(tx, deps, { server, pseudo, addresses }))

// The vote's script. A refused vote throws before writing anything, so that it may share a
// commit with other votes (src/votes/cast.ts).
export function* writeVote(tx: VoteTx, deps: { clock: Clock; config: Config }, input: VoteInput): TxScript<RecordedVote> {
  const { server } = input
  const name = checkPseudo(input.pseudo, server.edition)
  const key = pseudoKey(name)
  const seen = new Map<string, string>()
  for (const a of input.addresses) {
    const k = a ? ipKey(a) : null
    if (k && !seen.has(k)) seen.set(k, a!)
  }
  const ipKeys = [...seen.keys()]
  const intervalMs = deps.config.votes.interval_minutes * 60_000
  const now = deps.clock.now()
  yield* use(tx.votes.serialise(server.id))
  const recent = yield* use(tx.votes.recent(server.id, key, ipKeys, now - intervalMs + 1))
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
  const monthlyVotes = yield* use(tx.votes.insert(vote, [...seen].map(([ipKey, address]) => ({ ipKey, address }))))
  const address = seen.values().next().value ?? null
  yield* queueDeliveries(tx, { server: { id: server.id, slug: server.slug, name: server.name }, vote: { id: vote.id, pseudo: name, createdAt }, address, monthlyVotes }, now)
  return { vote: { id: vote.id, pseudo: name, createdAt }, nextVoteAt: createdAt + intervalMs }
}
