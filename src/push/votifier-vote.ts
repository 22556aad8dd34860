import type { VoteEvent } from '../deliveries/repo.ts'

// The four fields every Votifier vote carries, in both protocol versions.
export interface VotifierVote {
  serviceName: string
  username: string
  address: string // the voter's address; "0.0.0.0" when unknown
  timestamp: number // milliseconds since the epoch
}

export const votifierVoteOf = (event: VoteEvent, serviceName: string): VotifierVote => ({
  serviceName,
  username: event.vote.pseudo,
  address: event.address ?? '0.0.0.0',
  timestamp: event.vote.createdAt,
})
