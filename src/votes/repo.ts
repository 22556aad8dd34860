import type { Awaitable } from '../db/store.ts'

// The latest vote times a new vote is checked against (null: none).
export interface RecentVotes {
  byPseudo: number | null // this pseudo, within the interval
  byAddress: number | null // any of these addresses, within the interval
  lastAt: number | null // the server's latest vote, ever: a new vote's created_at must exceed it
  // PostgreSQL: the server was deleted while the vote waited for its turn (a deletion takes the
  // server's turn too: src/servers/service.ts). SQLite runs one write at a time: a vote's
  // transaction finds its server deleted before, in the listing it reads first (src/votes/targets.ts).
  deleted?: boolean
}

export interface NewVote {
  id: string
  serverId: string
  pseudo: string
  pseudoKey: string
  createdAt: number
}

export interface VotesRepo {
  // Called first by a vote's transaction: the server's votes are taken one at a time until the
  // transaction ends, so that the reads below see every vote committed before (two concurrent
  // votes of one player cannot both pass the interval check, and created_at stays unique and
  // increasing). SQLite's write transaction already serialises every write: nothing to do there.
  serialise(serverId: string): Awaitable<void>
  // Everything the interval check and created_at need, in one read. `since` bounds the interval
  // (inclusive); `ipKeys` are the vote's address keys.
  recent(serverId: string, pseudoKey: string, ipKeys: string[], since: number): Awaitable<RecentVotes>
  // Writes the vote, its addresses and the month counters; returns the server's votes this month.
  insert(vote: NewVote, addresses: { ipKey: string; address: string }[]): Awaitable<number>
  // A vote shown back to its voter.
  byId(serverId: string, voteId: string): Awaitable<{ id: string; pseudo: string; createdAt: number } | null>
}
