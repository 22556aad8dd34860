import type { Awaitable } from '../db/store.ts'

// The queries of the verification API over the votes.

export interface FoundVote {
  id: string
  pseudo: string
  createdAt: number
  claimedAt: number | null
}

export interface ListedVote {
  id: string
  pseudo: string
  createdAt: number
  claimed: boolean
}

export interface VerificationRepo {
  // The most recent vote since `since` (inclusive) by that pseudo, from that address, or both.
  latestByPseudo(serverId: string, pseudoKey: string, since: number): Awaitable<FoundVote | null>
  latestByIp(serverId: string, ipKey: string, since: number): Awaitable<FoundVote | null>
  latestByPseudoAndIp(serverId: string, pseudoKey: string, ipKey: string, since: number): Awaitable<FoundVote | null>
  // Marks the oldest unclaimed vote of the pseudo since `since` as claimed at `now` and returns
  // it; a vote is never claimed twice, however many claims race.
  claimOldest(serverId: string, pseudoKey: string, since: number, now: number): Awaitable<FoundVote | null>
  // Votes created strictly after `since`, oldest first.
  after(serverId: string, since: number, limit: number): Awaitable<ListedVote[]>
}
