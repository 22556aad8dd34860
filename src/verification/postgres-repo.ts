import { row, rows, type Pg } from '../db/postgres-client.ts'
import type { FoundVote, ListedVote, VerificationRepo } from './repo.ts'

// The same indexes as on SQLite serve each query (migrations/postgres/0002_votes.sql, and the
// vote_address key of 0095_vote_address_by_server.sql).
const found = 'v.id, v.pseudo, v.created_at AS "createdAt", v.claimed_at AS "claimedAt"'

const LATEST_BY_PSEUDO = `SELECT ${found} FROM vote v
  WHERE v.server_id = $1 AND v.pseudo_key = $2 AND v.created_at >= $3 ORDER BY v.created_at DESC LIMIT 1`
const LATEST_BY_IP = `SELECT ${found} FROM vote_address a JOIN vote v ON v.id = a.vote_id
  WHERE a.server_id = $1 AND a.ip_key = $2 AND a.created_at >= $3 ORDER BY a.created_at DESC LIMIT 1`
const LATEST_BY_BOTH = `SELECT ${found} FROM vote v
  WHERE v.server_id = $1 AND v.pseudo_key = $2 AND v.created_at >= $3
    AND EXISTS (SELECT 1 FROM vote_address a WHERE a.server_id = $1 AND a.ip_key = $4 AND a.created_at = v.created_at)
  ORDER BY v.created_at DESC LIMIT 1`
// The oldest unclaimed vote, taken with FOR UPDATE SKIP LOCKED: a concurrent claim holding it is
// passed over (that claim gets it), so each vote is claimed exactly once and a second claim gets
// the next vote, if any. `claimed_at IS NULL` is checked again on the row written.
const CLAIM_OLDEST = `UPDATE vote v SET claimed_at = $4
  WHERE v.id = (SELECT id FROM vote WHERE server_id = $1 AND pseudo_key = $2 AND created_at >= $3 AND claimed_at IS NULL
                ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
    AND v.claimed_at IS NULL
  RETURNING ${found}`
const AFTER = `SELECT id, pseudo, created_at AS "createdAt", claimed_at IS NOT NULL AS claimed FROM vote
  WHERE server_id = $1 AND created_at > $2 ORDER BY created_at LIMIT $3`

export function postgresVerificationRepo(pg: Pg) {
  return {
    latestByPseudo: (serverId, pseudoKey, since) => row<FoundVote>(pg, LATEST_BY_PSEUDO, [serverId, pseudoKey, since]),
    latestByIp: (serverId, ipKey, since) => row<FoundVote>(pg, LATEST_BY_IP, [serverId, ipKey, since]),
    latestByPseudoAndIp: (serverId, pseudoKey, ipKey, since) => row<FoundVote>(pg, LATEST_BY_BOTH, [serverId, pseudoKey, since, ipKey]),
    claimOldest: (serverId, pseudoKey, since, now) => row<FoundVote>(pg, CLAIM_OLDEST, [serverId, pseudoKey, since, now]),
    after: (serverId, since, limit) => rows<ListedVote>(pg, AFTER, [serverId, since, limit]),
  } satisfies VerificationRepo
}
