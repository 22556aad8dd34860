import type { Clock } from '../clock.ts'
import type { Awaitable } from '../db/store.ts'
import { monthOf } from '../servers/month.ts'
import type { RankedServer, RankingRepo, ServersRepo } from '../servers/repo.ts'
import type { PageView } from './layout.ts'

// What the public pages keep between requests. The ranking's query ranks every listed server
// (milliseconds with a thousand of them), so a rendered ranking page, and the ranks a server's
// page shows, are kept and served again while both hold:
// - the listings are as they were (the database's listing version: a server added, edited,
//   hidden, verified or deleted, its modes, icon or banner, its owner's account), whoever changed
//   them (this instance, another one, the command line);
// - they were read less than PAGE_STALE_MS ago by the site's clock: votes and pings do not change
//   the listing version, so they show within that time.
// A page depends on nothing else of the request than its address and its language (no session,
// no form token, no cookie besides the language's), which make its key; what a visitor gets is
// what any other visitor asking the same address in the same language gets.
export const PAGE_STALE_MS = 5_000
// Rendered pages kept at most (their UTF-8 bytes; a ranking page of 50 rows is about 75 kB): the
// least recently served go first. Any address can be asked for (a search, unknown parameters),
// so the bound is what keeps memory in check.
const PAGE_CACHE_BYTES = 8 * 1024 * 1024
// Months whose ranks are kept (the current one, and the few a visitor browses back to).
const RANKED_MONTHS = 4

interface Kept<T> {
  value: T
  version: number
  at: number
  size: number
}

// A map of values made at a listing version and a time, each served while both hold, the least
// recently served dropped past `maxSize`. Requests for a key that is being made wait for it
// rather than make it again (on PostgreSQL a render awaits its queries).
export function createStaleCache<T>(o: { maxSize: number; sizeOf(value: T): number; staleMs?: number }) {
  const staleMs = o.staleMs ?? PAGE_STALE_MS
  const kept = new Map<string, Kept<T>>()
  const making = new Map<string, { version: number; at: number; value: Promise<T> }>()
  let size = 0
  // A clock that went back also makes it again.
  const fresh = (e: { version: number; at: number }, version: number, now: number) => e.version === version && now >= e.at && now - e.at < staleMs

  const drop = (key: string) => {
    const e = kept.get(key)
    if (!e) return
    kept.delete(key)
    size -= e.size
  }

  function keep(key: string, e: Kept<T>) {
    drop(key)
    if (e.size > o.maxSize) return
    kept.set(key, e)
    size += e.size
    // A Map iterates in insertion order, and a served entry is inserted again: the first is the
    // least recently served.
    for (const k of kept.keys()) {
      if (size <= o.maxSize) break
      drop(k)
    }
  }

  async function make(key: string, version: number, now: number, build: () => Awaitable<T>): Promise<T> {
    const value = await build()
    keep(key, { value, version, at: now, size: o.sizeOf(value) })
    return value
  }

  return {
    // The value kept for `key` if it is fresh, else the one `build` makes (kept for the next).
    // `version`: the listing version read before anything `build` reads.
    get(key: string, version: number, now: number, build: () => Awaitable<T>): Awaitable<T> {
      const e = kept.get(key)
      if (e && fresh(e, version, now)) {
        kept.delete(key)
        kept.set(key, e)
        return e.value
      }
      const pending = making.get(key)
      if (pending && fresh(pending, version, now)) return pending.value
      const value = make(key, version, now, build)
      const entry = { version, at: now, value }
      making.set(key, entry)
      const done = () => { if (making.get(key) === entry) making.delete(key) }
      value.then(done, done)
      return value
    },
    get size() {
      return size
    },
    get count() {
      return kept.size
    },
  }
}

export interface PageCacheDeps {
  clock: Clock
  store: { servers: ServersRepo; ranking: RankingRepo }
}

const utf8 = new TextEncoder()

// The public pages' caches: rendered pages by address and language, and each month's ranks.
export function createPageCaches(deps: PageCacheDeps) {
  const pages = createStaleCache<Uint8Array<ArrayBuffer>>({ maxSize: PAGE_CACHE_BYTES, sizeOf: (page) => page.byteLength })
  const ranks = createStaleCache<Map<string, RankedServer>>({ maxSize: RANKED_MONTHS, sizeOf: () => 1 })
  return {
    // The page `render` makes for this request, or the one it made for an earlier request of the
    // same address in the same language. The current month is part of the key: a new month starts
    // with a new page.
    async page(view: PageView, render: () => Awaitable<string>): Promise<Uint8Array<ArrayBuffer>> {
      const version = await deps.store.servers.listingVersion()
      const now = deps.clock.now()
      const key = `${view.tr.lang} ${monthOf(now)} ${view.url.pathname}${view.url.search}`
      return pages.get(key, version, now, async () => utf8.encode(await render()))
    },
    // The server's rank and votes in the month (null: not ranked in it), from the month's whole
    // ranking, read once for every server's page.
    async rankOf(serverId: string, month: string): Promise<RankedServer | null> {
      const version = await deps.store.servers.listingVersion()
      const ranking = await ranks.get(month, version, deps.clock.now(), async () => {
        const { rows } = await deps.store.ranking.page(month, {}, Number.MAX_SAFE_INTEGER, 0)
        return new Map(rows.map((r) => [r.id, r]))
      })
      return ranking.get(serverId) ?? null
    },
  }
}
