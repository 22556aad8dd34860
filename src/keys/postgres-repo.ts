import { exec, row, rows, type Pg } from '../db/postgres-client.ts'
import type { ApiKey, KeysRepo, LiveKey } from './repo.ts'

const cols = 'id, server_id AS "serverId", prefix, name, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"'

export function postgresKeysRepo(pg: Pg) {
  return {
    async insert(k) {
      await exec(pg, 'INSERT INTO api_key (id, server_id, hash, prefix, name, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [k.id, k.serverId, k.hash, k.prefix, k.name, k.createdAt])
    },
    byServer: (serverId) => rows<ApiKey>(pg, `SELECT ${cols} FROM api_key WHERE server_id = $1 AND revoked_at IS NULL ORDER BY created_at, id`, [serverId]),
    revoke: async (id, serverId, at) => (await exec(pg, 'UPDATE api_key SET revoked_at = $1 WHERE id = $2 AND server_id = $3 AND revoked_at IS NULL', [at, id, serverId])) > 0,
    // Each instance writes the uses it saw: the latest stands, whichever instance writes last.
    async touch(id, at) {
      await exec(pg, 'UPDATE api_key SET last_used_at = greatest(last_used_at, $1) WHERE id = $2', [at, id])
    },
    // A disabled account's keys are refused like revoked ones (re-enabling the account revives them).
    liveByHash: (hash) => row<LiveKey>(pg, `SELECT k.id, s.id AS "serverId", s.slug, s.name, s.edition
      FROM api_key k JOIN server s ON s.id = k.server_id JOIN "user" u ON u.id = s.owner_id
      WHERE k.hash = $1 AND k.revoked_at IS NULL AND u.disabled_at IS NULL`, [hash]),
  } satisfies KeysRepo
}
