import type { Awaitable } from '../db/store.ts'
import type { Edition } from '../servers/schema.ts'

export interface ApiKey {
  id: string
  serverId: string
  prefix: string
  name: string
  createdAt: number
  lastUsedAt: number | null
  revokedAt: number | null
}

// What an API request needs to know about a live key: the key and its server.
export interface LiveKey {
  id: string
  serverId: string
  slug: string
  name: string
  edition: Edition
}

export interface KeysRepo {
  insert(k: Omit<ApiKey, 'lastUsedAt' | 'revokedAt'> & { hash: string }): Awaitable<void>
  // The server's active keys, oldest first.
  byServer(serverId: string): Awaitable<ApiKey[]>
  revoke(id: string, serverId: string, at: number): Awaitable<boolean>
  touch(id: string, at: number): Awaitable<void>
  // The live key with this hash (not revoked, its server not deleted, its owner not disabled), in
  // one lookup.
  liveByHash(hash: string): Awaitable<LiveKey | null>
}
