import type { Database } from 'bun:sqlite'

export interface VoteRow {
  id: string
  serverId: string
  pseudo: string
  createdAt: number
  claimedAt: number | null
}

// 'YYYY-MM' of a time, in UTC: the month a vote counts for.
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7)

const voteCols = 'id, server_id AS serverId, pseudo, created_at AS createdAt, claimed_at AS claimedAt'

export function votesRepo(db: Database) {
  const lastCreatedAt = db.prepare('SELECT max(created_at) AS t FROM vote WHERE server_id = ?')
  const latestByPseudo = db.prepare(`SELECT ${voteCols} FROM vote
    WHERE server_id = ? AND pseudo_key = ? AND created_at >= ? ORDER BY created_at DESC LIMIT 1`)
  const latestByIpKey = db.prepare(`SELECT max(created_at) AS t FROM vote_address
    WHERE server_id = ? AND ip_key = ? AND created_at >= ?`)
  const insertVote = db.prepare('INSERT INTO vote (id, server_id, pseudo, pseudo_key, created_at) VALUES (?, ?, ?, ?, ?)')
  const insertAddress = db.prepare('INSERT OR IGNORE INTO vote_address (vote_id, server_id, ip_key, address, created_at) VALUES (?, ?, ?, ?, ?)')
  const bumpMonth = db.prepare(`INSERT INTO server_month (server_id, month, votes, last_vote_at) VALUES (?1, ?2, 1, ?3)
    ON CONFLICT (server_id, month) DO UPDATE SET votes = votes + 1, last_vote_at = ?3`)
  const bumpVoter = db.prepare(`INSERT INTO voter_month (server_id, month, pseudo_key, pseudo, votes, last_vote_at) VALUES (?1, ?2, ?3, ?4, 1, ?5)
    ON CONFLICT (server_id, month, pseudo_key) DO UPDATE SET votes = votes + 1, pseudo = ?4, last_vote_at = ?5`)
  const monthVotes = db.prepare('SELECT votes FROM server_month WHERE server_id = ? AND month = ?')

  return {
    lastCreatedAt: (serverId: string) => (lastCreatedAt.get(serverId) as { t: number | null }).t,
    latestByPseudo: (serverId: string, pseudoKey: string, since: number) => latestByPseudo.get(serverId, pseudoKey, since) as VoteRow | null,
    // Latest vote time among votes recorded with any of these address keys, or null.
    latestByIpKeys(serverId: string, ipKeys: string[], since: number): number | null {
      let latest: number | null = null
      for (const k of ipKeys) {
        const t = (latestByIpKey.get(serverId, k, since) as { t: number | null }).t
        if (t !== null && (latest === null || t > latest)) latest = t
      }
      return latest
    },
    insert(v: { id: string; serverId: string; pseudo: string; pseudoKey: string; createdAt: number }, addresses: { ipKey: string; address: string }[]) {
      insertVote.run(v.id, v.serverId, v.pseudo, v.pseudoKey, v.createdAt)
      for (const a of addresses) insertAddress.run(v.id, v.serverId, a.ipKey, a.address, v.createdAt)
      const month = monthOf(v.createdAt)
      bumpMonth.run(v.serverId, month, v.createdAt)
      bumpVoter.run(v.serverId, month, v.pseudoKey, v.pseudo, v.createdAt)
    },
    monthVotes: (serverId: string, month: string) => (monthVotes.get(serverId, month) as { votes: number } | null)?.votes ?? 0,
  }
}
export type VotesRepo = ReturnType<typeof votesRepo>
