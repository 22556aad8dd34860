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
import { notListed } from '../servers/service.ts'
import type { VotesRepo } from './repo.ts'
import { confirmTarget, type TargetTx } from './targets.ts'

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

// When a vote is written (`now`) and the interval it is checked against.
export interface VoteTime {
  now: number
  intervalMs: number
}

export const voteTime = (deps: { clock: Clock; config: Config }): VoteTime =>
  ({ now: deps.clock.now(), intervalMs: deps.config.votes.interval_minutes * 60_000 })

// A vote sent through the vote form, as plain data: what its transaction needs, written on the
// site's thread or on the vote writer's (src/votes/writer.ts), which gets it as a message.
export interface VoteJob extends VoteTime {
  // The server as the vote path found it (src/votes/targets.ts), confirmed inside the transaction.
  found: { target: VoteTarget; version: number }
  pseudo: string
  addresses: (string | null)[]
}

export interface CastVote {
  recorded: RecordedVote
  // The server read again inside the transaction (its listing had moved), for the vote path to
  // remember; null when the one it found was current.
  reread: { target: VoteTarget; version: number } | null
}

// The transaction of a vote sent through the vote form: the server confirmed, then the vote.
export function* castScript(tx: VoteTx, job: VoteJob): TxScript<CastVote> {
  const confirmed = yield* confirmTarget(tx, job.found)
  const recorded = yield* writeVote(tx, job, { server: confirmed.target, pseudo: job.pseudo, addresses: job.addresses })
  return { recorded, reread: confirmed.reread ? { target: confirmed.target, version: confirmed.version } : null }
}

// Records a vote and queues one delivery per configured channel in ONE transaction, before the
// voter is told it worked: an acknowledged vote is never lost and its notifications are never
// forgotten. The interval applies per server to the pseudo and to every recorded address.
export const recordVote = (deps: VoteDeps, server: VoteTarget, pseudo: string, addresses: (string | null)[]): Promise<RecordedVote> =>
  deps.store.write((tx) => writeVote(tx, voteTime(deps), { server, pseudo, addresses }))

// The vote's script. A refused vote throws before writing anything, so that it may share a
// commit with other votes (src/votes/cast.ts).
function* writeVote(tx: VoteTx, time: VoteTime, input: VoteInput): TxScript<RecordedVote> {
  const { server } = input
  const name = checkPseudo(input.pseudo, server.edition)
  const key = pseudoKey(name)
  const seen = new Map<string, string>()
  for (const a of input.addresses) {
    const k = a ? ipKey(a) : null
    if (k && !seen.has(k)) seen.set(k, a!)
  }
  const ipKeys = [...seen.keys()]
  const { now, intervalMs } = time
  yield* use(tx.votes.serialise(server.id))
  const recent = yield* use(tx.votes.recent(server.id, key, ipKeys, now - intervalMs + 1))
  if (recent.deleted) throw notListed(server.slug)
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
