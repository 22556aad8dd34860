import type { AuditRepo } from '../audit/repo.ts'
import { auditOnServer, type ServerActor } from '../audit/service.ts'
import type { Clock } from '../clock.ts'
import { use, type StoreWrites } from '../db/store.ts'
import { invalidParameter, notFound } from '../http/errors.ts'
import { newId, randomSecret, sha256Hex } from '../ids.ts'
import type { KeysRepo } from './repo.ts'

// vlk_ + 32 base64url characters = 192 random bits. Only the SHA-256 is stored: a fast hash is
// right for a high-entropy secret, and it keeps key lookup one indexed equality.
export const KEY_PREFIX = 'vlk_'

export interface CreatedKey {
  key: string
  id: string
  prefix: string
}

export interface KeyDeps {
  store: { keys: KeysRepo } & StoreWrites<{ keys: KeysRepo; audit: AuditRepo }>
  clock: Clock
}

// `by`: who makes it through the routes (an administrator's key on another account's server is audited).
export async function createKey(deps: KeyDeps, serverId: string, name = '', by?: ServerActor): Promise<CreatedKey> {
  if (name.length > 64) throw invalidParameter('name must be at most 64 characters long', 'name')
  const key = KEY_PREFIX + randomSecret(24)
  const created = { id: newId(), serverId, hash: sha256Hex(key), prefix: key.slice(0, 8), name: name.trim(), createdAt: deps.clock.now() }
  await deps.store.write(function* (tx) {
    yield* use(tx.keys.insert(created))
    yield* auditOnServer(tx, created.createdAt, by, 'server.key_create', { prefix: created.prefix })
  })
  return { key, id: created.id, prefix: created.prefix }
}

export const hashKey = (key: string) => sha256Hex(key)

// Revoked keys stop working at once; the row stays so a revoked key is never mistaken for unknown
// in the logs, but it is no longer listed.
export async function revokeKey(deps: KeyDeps, serverId: string, id: string, by?: ServerActor): Promise<void> {
  await deps.store.write(function* (tx) {
    const now = deps.clock.now()
    const key = (yield* use(tx.keys.byServer(serverId))).find((k) => k.id === id)
    if (!key || !(yield* use(tx.keys.revoke(id, serverId, now)))) throw notFound(`no active API key with the id "${id}" on this server`)
    yield* auditOnServer(tx, now, by, 'server.key_revoke', { prefix: key.prefix })
  })
}
