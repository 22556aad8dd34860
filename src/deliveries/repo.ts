import type { Database } from 'bun:sqlite'

export type Channel = 'votifier' | 'webhook'

// What every attempt of a vote's delivery sends, frozen when the vote is recorded: channel
// encoders (Votifier payload, webhook body) are built from it.
export interface VoteEvent {
  server: { id: string; slug: string; name: string }
  vote: { id: string; pseudo: string; createdAt: number }
  address: string | null
  monthlyVotes: number
}

export function deliveriesRepo(db: Database) {
  const channels = db.prepare(`SELECT 'votifier' AS channel FROM votifier WHERE server_id = ?1
    UNION ALL SELECT 'webhook' FROM webhook WHERE server_id = ?1`)
  const insert = db.prepare(`INSERT INTO delivery (id, server_id, vote_id, channel, test, pseudo, payload, status, next_attempt_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`)
  return {
    // The channels the owner has configured for this server, in a fixed order.
    channels: (serverId: string) => (channels.all(serverId) as { channel: Channel }[]).map((r) => r.channel),
    insert(d: { id: string; serverId: string; voteId: string | null; channel: Channel; test: boolean; pseudo: string; payload: VoteEvent; at: number }) {
      insert.run(d.id, d.serverId, d.voteId, d.channel, d.test ? 1 : 0, d.pseudo, JSON.stringify(d.payload), d.at, d.at, d.at)
    },
  }
}
export type DeliveriesRepo = ReturnType<typeof deliveriesRepo>

// Job kind that performs one attempt of a delivery; its payload is { deliveryId }.
export const DELIVERY_JOB = 'delivery'
