import { exec, row, type Pg } from '../db/postgres-client.ts'
import { monthOf } from '../servers/month.ts'
import type { RecentVotes, VotesRepo } from './repo.ts'

// The first key of the advisory locks that serialise one server's votes (the second is a hash of
// the server's id). Two servers whose ids hash alike only share a queue, never a result.
const VOTE_LOCK = 0x766f7465 // "vote"

const RECENT = `SELECT
  (SELECT max(created_at) FROM vote WHERE server_id = $1 AND pseudo_key = $2 AND created_at >= $3) AS "byPseudo",
  (SELECT max(created_at) FROM vote_address WHERE server_id = $1 AND ip_key = ANY($4::text[]) AND created_at >= $3) AS "byAddress",
  (SELECT max(created_at) FROM vote WHERE server_id = $1) AS "lastAt",
  NOT EXISTS (SELECT 1 FROM server WHERE id = $1 AND deleted_at IS NULL) AS deleted`

// The vote, its addresses and both month counters in one statement (one round trip); the server's
// votes this month come back from the counter's upsert.
const INSERT = `WITH v AS (
    INSERT INTO vote (id, server_id, pseudo, pseudo_key, created_at) VALUES ($1, $2, $3, $4, $5)
  ), a AS (
    INSERT INTO vote_address (vote_id, server_id, ip_key, address, created_at)
    SELECT $1, $2, k, addr, $5 FROM unnest($7::text[], $8::text[]) AS x(k, addr)
    ON CONFLICT DO NOTHING
  ), voter AS (
    INSERT INTO voter_month (server_id, month, pseudo_key, pseudo, votes, last_vote_at) VALUES ($2, $6, $4, $3, 1, $5)
    ON CONFLICT (server_id, month, pseudo_key) DO UPDATE SET votes = voter_month.votes + 1, pseudo = excluded.pseudo, last_vote_at = excluded.last_vote_at
  )
  INSERT INTO server_month (server_id, month, votes, last_vote_at) VALUES ($2, $6, 1, $5)
  ON CONFLICT (server_id, month) DO UPDATE SET votes = server_month.votes + 1, last_vote_at = excluded.last_vote_at
  RETURNING votes`

export function postgresVotesRepo(pg: Pg) {
  return {
    // A transaction-scoped advisory lock: released by the commit or the rollback. It is taken in
    // a statement of its own: each later statement reads with a snapshot taken after it is held.
    async serialise(serverId) {
      await exec(pg, 'SELECT pg_advisory_xact_lock($1, hashtext($2))', [VOTE_LOCK, serverId])
    },
    recent: async (serverId, pseudoKey, ipKeys, since) => (await row<RecentVotes>(pg, RECENT, [serverId, pseudoKey, since, ipKeys]))!,
    async insert(v, addresses) {
      const r = await row<{ votes: number }>(pg, INSERT, [
        v.id, v.serverId, v.pseudo, v.pseudoKey, v.createdAt, monthOf(v.createdAt), addresses.map((a) => a.ipKey), addresses.map((a) => a.address),
      ])
      return r!.votes
    },
    byId: (serverId, voteId) => row<{ id: string; pseudo: string; createdAt: number }>(pg,
      'SELECT id, pseudo, created_at AS "createdAt" FROM vote WHERE id = $1 AND server_id = $2', [voteId, serverId]),
  } satisfies VotesRepo
}
