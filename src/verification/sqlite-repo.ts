import type { Database } from 'bun:sqlite'
import type { ReadBatches } from '../db/read-batch.ts'
import type { FoundVote, ListedVote, VerificationRepo } from './repo.ts'

// Each query walks an index: vote_pseudo (server_id, pseudo_key, created_at) and UNIQUE
// (server_id, created_at) of migrations/0002, the vote_address primary key (server_id, ip_key,
// created_at) of migrations/0095 (a vote's address row has the vote's server and created_at).
// `+?`: see the note on Bun's SQLite in src/votes/sqlite-repo.ts (these would be prepared again
// at every run otherwise).

const found = 'v.id, v.pseudo, v.created_at AS createdAt, v.claimed_at AS claimedAt'

// The checks' reads (latest*) are batched per turn of the event loop outside a transaction
// (src/db/read-batch.ts): they are what plugins poll.
export function sqliteVerificationRepo(db: Database, reads: ReadBatches) {
  const latestByPseudo = reads.prepare(`SELECT id, pseudo, created_at AS createdAt, claimed_at AS claimedAt FROM vote
    WHERE server_id = +?1 AND pseudo_key = +?2 AND created_at >= ?3 ORDER BY created_at DESC LIMIT 1`)
  const latestByIp = reads.prepare(`SELECT ${found} FROM vote_address a JOIN vote v ON v.id = a.vote_id
    WHERE a.server_id = +?1 AND a.ip_key = +?2 AND a.created_at >= ?3 ORDER BY a.created_at DESC LIMIT 1`)
  const latestByBoth = reads.prepare(`SELECT ${found} FROM vote v
    WHERE v.server_id = +?1 AND v.pseudo_key = +?2 AND v.created_at >= ?3
      AND EXISTS (SELECT 1 FROM vote_address a WHERE a.server_id = +?1 AND a.ip_key = +?4 AND a.created_at = v.created_at)
    ORDER BY v.created_at DESC LIMIT 1`)
  // One statement picks and marks the oldest unclaimed vote; `claimed_at IS NULL` is checked
  // again on the row written, so a vote is never claimed twice.
  const claimOldest = db.prepare(`UPDATE vote SET claimed_at = ?4
    WHERE id = (SELECT id FROM vote WHERE server_id = +?1 AND pseudo_key = +?2 AND created_at >= ?3 AND claimed_at IS NULL
                ORDER BY created_at LIMIT 1)
      AND claimed_at IS NULL
    RETURNING id, pseudo, created_at AS createdAt, claimed_at AS claimedAt`)
  const after = db.prepare(`SELECT id, pseudo, created_at AS createdAt, claimed_at IS NOT NULL AS claimed FROM vote
    WHERE server_id = +?1 AND created_at > ?2 ORDER BY created_at LIMIT +?3`)

  return {
    latestByPseudo: (serverId, pseudoKey, since) => latestByPseudo.get(serverId, pseudoKey, since) as FoundVote | null,
    latestByIp: (serverId, ipKey, since) => latestByIp.get(serverId, ipKey, since) as FoundVote | null,
    latestByPseudoAndIp: (serverId, pseudoKey, ipKey, since) => latestByBoth.get(serverId, pseudoKey, since, ipKey) as FoundVote | null,
    claimOldest: (serverId, pseudoKey, since, now) => claimOldest.get(serverId, pseudoKey, since, now) as FoundVote | null,
    after(serverId, since, limit) {
      const rows = after.all(serverId, since, limit) as (Omit<ListedVote, 'claimed'> & { claimed: number })[]
      return rows.map((r) => ({ ...r, claimed: r.claimed === 1 }))
    },
  } satisfies VerificationRepo
}
