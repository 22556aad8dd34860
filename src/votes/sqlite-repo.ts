import type { Database, Statement } from 'bun:sqlite'
import { monthOf } from '../servers/month.ts'
import type { RecentVotes, VotesRepo } from './repo.ts'

// A measured pitfall of the SQLite in Bun 1.4.5 (3.54.1): a statement is prepared again at every
// run — tens of microseconds, growing with the SQL's length — when its ORDER BY or max()/min() is
// served by an index after an equality on a bare bound parameter (`server_id = ?`), or when its
// LIMIT is a bare parameter. Writing the value as `+?` (unary plus: the same value) keeps the
// index and the prepared program. Hot statements of those shapes use it.
export function sqliteVotesRepo(db: Database) {
  const insertVote = db.prepare('INSERT INTO vote (id, server_id, pseudo, pseudo_key, created_at) VALUES (?, ?, ?, ?, ?)')
  const insertAddress = db.prepare('INSERT OR IGNORE INTO vote_address (vote_id, server_id, ip_key, address, created_at) VALUES (?, ?, ?, ?, ?)')
  const bumpMonth = db.prepare(`INSERT INTO server_month (server_id, month, votes, last_vote_at) VALUES (?1, ?2, 1, ?3)
    ON CONFLICT (server_id, month) DO UPDATE SET votes = votes + 1, last_vote_at = ?3 RETURNING votes`)
  const bumpVoter = db.prepare(`INSERT INTO voter_month (server_id, month, pseudo_key, pseudo, votes, last_vote_at) VALUES (?1, ?2, ?3, ?4, 1, ?5)
    ON CONFLICT (server_id, month, pseudo_key) DO UPDATE SET votes = votes + 1, pseudo = ?4, last_vote_at = ?5`)
  const byId = db.prepare('SELECT id, pseudo, created_at AS createdAt FROM vote WHERE id = ? AND server_id = ?')
  // One statement per number of address keys (a vote has one to three).
  const recentStatements = new Map<number, Statement>()
  const recentStatement = (keys: number) => {
    let st = recentStatements.get(keys)
    if (!st) {
      const list = Array.from({ length: keys }, (_, i) => `+?${i + 4}`).join(', ')
      const byAddress = keys ? `(SELECT max(created_at) FROM vote_address WHERE server_id = +?1 AND ip_key IN (${list}) AND created_at >= ?3)` : 'NULL'
      st = db.prepare(`SELECT
        (SELECT max(created_at) FROM vote WHERE server_id = +?1 AND pseudo_key = +?2 AND created_at >= ?3) AS byPseudo,
        ${byAddress} AS byAddress,
        (SELECT max(created_at) FROM vote WHERE server_id = +?1) AS lastAt`)
      recentStatements.set(keys, st)
    }
    return st
  }

  return {
    serialise() {},
    recent: (serverId, pseudoKey, ipKeys, since) => recentStatement(ipKeys.length).get(serverId, pseudoKey, since, ...ipKeys) as RecentVotes,
    insert(v, addresses) {
      insertVote.run(v.id, v.serverId, v.pseudo, v.pseudoKey, v.createdAt)
      for (const a of addresses) insertAddress.run(v.id, v.serverId, a.ipKey, a.address, v.createdAt)
      const month = monthOf(v.createdAt)
      // RETURNING: SQLite makes every change at the first step, so get() runs the whole upsert.
      const { votes } = bumpMonth.get(v.serverId, month, v.createdAt) as { votes: number }
      bumpVoter.run(v.serverId, month, v.pseudoKey, v.pseudo, v.createdAt)
      return votes
    },
    byId: (serverId, voteId) => byId.get(voteId, serverId) as { id: string; pseudo: string; createdAt: number } | null,
  } satisfies VotesRepo
}
