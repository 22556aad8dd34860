import type { Database } from 'bun:sqlite'
import type { ApiKey, KeysRepo, LiveKey } from './repo.ts'

const cols = 'id, server_id AS serverId, prefix, name, created_at AS createdAt, last_used_at AS lastUsedAt, revoked_at AS revokedAt'

export function sqliteKeysRepo(db: Database) {
  const insert = db.prepare('INSERT INTO api_key (id, server_id, hash, prefix, name, created_at) VALUES (?, ?, ?, ?, ?, ?)')
  const byServer = db.prepare(`SELECT ${cols} FROM api_key WHERE server_id = ? AND revoked_at IS NULL ORDER BY created_at, id`)
  const revoke = db.prepare('UPDATE api_key SET revoked_at = ? WHERE id = ? AND server_id = ? AND revoked_at IS NULL')
  const touch = db.prepare('UPDATE api_key SET last_used_at = ? WHERE id = ?')
  // A disabled account's keys are refused like revoked ones (re-enabling the account revives them).
  const liveByHash = db.prepare(`SELECT k.id, s.id AS serverId, s.slug, s.name, s.edition
    FROM api_key k JOIN server s ON s.id = k.server_id JOIN user u ON u.id = s.owner_id
    WHERE k.hash = ? AND k.revoked_at IS NULL AND u.disabled_at IS NULL`)
  return {
    insert: (k) => { insert.run(k.id, k.serverId, k.hash, k.prefix, k.name, k.createdAt) },
    byServer: (serverId) => byServer.all(serverId) as ApiKey[],
    revoke: (id, serverId, at) => revoke.run(at, id, serverId).changes > 0,
    touch: (id, at) => { touch.run(at, id) },
    liveByHash: (hash) => liveByHash.get(hash) as LiveKey | null,
  } satisfies KeysRepo
}
