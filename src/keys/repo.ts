import type { Database } from 'bun:sqlite'
import type { Edition } from '../servers/repo.ts'

export interface ApiKey {
  id: string
  serverId: string
  prefix: string
  name: string
  createdAt: number
  lastUsedAt: number | null
  revokedAt: number | null
}

export interface LiveKey {
  id: string
  serverId: string
  slug: string
  name: string
  edition: Edition
}

const cols = 'id, server_id AS serverId, prefix, name, created_at AS createdAt, last_used_at AS lastUsedAt, revoked_at AS revokedAt'

export function keysRepo(db: Database) {
  const insert = db.prepare('INSERT INTO api_key (id, server_id, hash, prefix, name, created_at) VALUES (?, ?, ?, ?, ?, ?)')
  const byHash = db.prepare(`SELECT ${cols} FROM api_key WHERE hash = ?`)
  const byServer = db.prepare(`SELECT ${cols} FROM api_key WHERE server_id = ? AND revoked_at IS NULL ORDER BY created_at, id`)
  const revoke = db.prepare('UPDATE api_key SET revoked_at = ? WHERE id = ? AND server_id = ? AND revoked_at IS NULL')
  const touch = db.prepare('UPDATE api_key SET last_used_at = ? WHERE id = ?')
  // What an API request needs to know about a live key: the key and its server, in one lookup.
  const liveByHash = db.prepare(`SELECT k.id, s.id AS serverId, s.slug, s.name, s.edition
    FROM api_key k JOIN server s ON s.id = k.server_id WHERE k.hash = ? AND k.revoked_at IS NULL`)
  return {
    insert: (k: Omit<ApiKey, 'lastUsedAt' | 'revokedAt'> & { hash: string }) => {
      insert.run(k.id, k.serverId, k.hash, k.prefix, k.name, k.createdAt)
    },
    byHash: (hash: string) => byHash.get(hash) as ApiKey | null,
    byServer: (serverId: string) => byServer.all(serverId) as ApiKey[],
    revoke: (id: string, serverId: string, at: number) => revoke.run(at, id, serverId).changes > 0,
    touch: (id: string, at: number) => { touch.run(at, id) },
    liveByHash: (hash: string) => liveByHash.get(hash) as LiveKey | null,
  }
}
export type KeysRepo = ReturnType<typeof keysRepo>
