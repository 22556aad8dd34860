import { then, use, type Awaitable, type StoreWrites } from '../db/store.ts'
import type { Scheduler } from '../jobs/scheduler.ts'
import type { KeysRepo, LiveKey } from './repo.ts'
import { hashKey } from './service.ts'

// A key lookup is trusted this long. A revoked or deleted key therefore stops working at most
// one second after the database says so, even when nobody tells this process (the command line
// runs in another one, a notification between instances can be lost); the revoke route also calls
// forgetKey() so it takes effect at once, here and in the site's other instances.
export const KEY_RECHECK_MS = 1000
// Entries not used for this long are dropped at the next flush.
const IDLE_MS = 10 * 60_000
// Unknown keys are remembered too (so a plugin polling with a wrong key costs no query per
// request), but only this many: past it they are all forgotten.
const MAX_MISSES = 10_000
// Secrets longer than this are not keys (ours are 36 characters): refused without hashing.
const MAX_KEY_LENGTH = 128

interface Entry {
  key: LiveKey | null
  checkedAt: number
  usedAt: number
  savedUsedAt: number
}

interface KeysTx {
  keys: KeysRepo
}

// What a cache tells the site's other instances (the payload of a notification).
type Forget = `key:${string}` | `server:${string}`

// hash → live key, re-read from the database at most once a second per key. last_used_at is
// kept in memory and written by flush() (once a minute from the scheduler), never per request.
// `tell`: passes what this instance forgot on to the others, where there are (they call heard()).
export function createKeyCache(store: KeysTx & StoreWrites<KeysTx>, tell: ((forget: Forget) => void) | null = null) {
  const entries = new Map<string, Entry>()
  let misses = 0
  // Counts what was forgotten: a read under way when something was forgotten may have been
  // answered before that change committed (another instance's revoke), so it is not trusted.
  let forgets = 0

  // A forgotten entry is read again at its next use; it keeps the use not yet written.
  const forget = (match: (key: LiveKey) => boolean) => {
    forgets++
    for (const e of entries.values()) if (e.key && match(e.key)) e.checkedAt = -Infinity
  }
  const forgetKey = (keyId: string) => forget((k) => k.id === keyId)
  const forgetServer = (serverId: string) => forget((k) => k.serverId === serverId)

  function remember(hash: string, key: LiveKey | null, now: number): Entry {
    const entry = entries.get(hash)
    if (entry) {
      entry.key = key
      entry.checkedAt = now
      return entry
    }
    if (!key && ++misses > MAX_MISSES) {
      for (const [h, e] of entries) if (!e.key) entries.delete(h)
      misses = 1
    }
    const created: Entry = { key, checkedAt: now, usedAt: 0, savedUsedAt: 0 }
    entries.set(hash, created)
    return created
  }

  const markUsed = (e: Entry, now: number) => {
    if (e.key) e.usedAt = now
    return e.key
  }
  // The read from the store, kept out of resolve() so that its usual answer (from memory) creates
  // no closure (see src/verification/check-route.ts).
  const lookUp = (hash: string, now: number) => {
    const before = forgets
    return then(store.keys.liveByHash(hash), (key) => {
      const e = remember(hash, key, now)
      if (forgets !== before) e.checkedAt = -Infinity
      return markUsed(e, now)
    })
  }

  return {
    // The live key this secret is, or null (unknown, revoked, or its server deleted). A key
    // checked within the last second is answered from memory, without a promise.
    resolve(secret: string, now: number): Awaitable<LiveKey | null> {
      if (secret.length > MAX_KEY_LENGTH) return null
      const hash = hashKey(secret)
      const e = entries.get(hash)
      // A clock that went backwards also forces a fresh read.
      if (e && now - e.checkedAt < KEY_RECHECK_MS && now >= e.checkedAt) return markUsed(e, now)
      return lookUp(hash, now)
    },

    // Called by the revoke route: the key is refused from the next request on, in every instance.
    forgetKey(keyId: string) {
      forgetKey(keyId)
      tell?.(`key:${keyId}`)
    },

    // Called when a server is deleted or renamed, or its owner disabled: its keys are looked up
    // again, in every instance.
    forgetServer(serverId: string) {
      forgetServer(serverId)
      tell?.(`server:${serverId}`)
    },

    // What another instance forgot (or this one: it hears its own notifications too).
    heard(payload: string) {
      const [kind, id] = [payload.slice(0, payload.indexOf(':')), payload.slice(payload.indexOf(':') + 1)]
      if (kind === 'key') forgetKey(id)
      else if (kind === 'server') forgetServer(id)
    },

    // Every entry is read again at its next use: what was told meanwhile may have been missed.
    forgetAll() {
      forgets++
      for (const e of entries.values()) e.checkedAt = -Infinity
    },

    // Writes last_used_at of the keys used since the previous flush (one transaction) and drops
    // idle entries. Returns how many keys were written.
    async flush(now: number): Promise<number> {
      const used: { entry: Entry; id: string; at: number }[] = []
      for (const [h, e] of entries) {
        if (e.key && e.usedAt > e.savedUsedAt) used.push({ entry: e, id: e.key.id, at: e.usedAt })
        else if (now - Math.max(e.usedAt, e.checkedAt) > IDLE_MS) entries.delete(h)
      }
      if (!used.length) return 0
      // In the keys' order, as every instance writes them: two instances' flushes meeting on
      // PostgreSQL then wait for each other instead of each holding a row the other needs (a
      // deadlock, which refused one of them).
      used.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
      await store.write(function* (tx) {
        for (const u of used) yield* use(tx.keys.touch(u.id, u.at))
      })
      for (const u of used) u.entry.savedUsedAt = Math.max(u.entry.savedUsedAt, u.at)
      return used.length
    },
  }
}
export type KeyCache = ReturnType<typeof createKeyCache>

// API keys' last_used_at, kept in memory by the cache: at most one write a minute per key.
export function registerKeyWork(scheduler: Scheduler, keyCache: KeyCache): void {
  scheduler.every('keys.last-used', 60_000, (now) => keyCache.flush(now), { title: 'API keys\' last use' })
}
