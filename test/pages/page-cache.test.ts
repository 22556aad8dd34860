import { afterAll, describe, expect, test } from 'bun:test'
import { createStaleCache, PAGE_STALE_MS } from '../../src/pages/page-cache.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { call, cleanupTemp, siteAgain, siteOn, testApp, type BackendRuntime } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

// The public pages keep what they rendered (src/pages/page-cache.ts): a ranking page, and the
// month's ranks a server's page shows, are served again while the listings are unchanged and for
// at most PAGE_STALE_MS by the site's clock. These tests hold it to what docs/admins.md promises.

type App = Awaited<ReturnType<typeof testApp>>

async function page(app: App, path: string, headers: Record<string, string> = {}) {
  const r = await call(app, 'GET', path, { headers })
  return { status: r.status, headers: Object.fromEntries(r.headers), body: await r.text() }
}

// The server's row on the ranking: from its name to the end of its item.
const rowOf = (body: string, name: string) => {
  const start = body.indexOf(`">${name}</a>`)
  return start < 0 ? null : body.slice(start, body.indexOf('</li>', start))
}
const rankedNames = (body: string) => [...body.matchAll(/<h2 class="server-name"><a href="\/serveur\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1])

// An administrator (the first account), an owner with two listed servers, one with a vote.
async function site(backend: Backend) {
  const rt = await siteOn(backend)
  const app = await testApp(rt)
  const admin = as(app, (await ownerSession(rt, 'admin@example.com')).headers)
  const alice = await ownerSession(rt, 'alice@example.com')
  const owner = as(app, alice.headers)
  for (const [name, modes] of [['Emerald Valley', ['survival']], ['Stone Isle', ['pvp']]] as const) {
    expect((await owner('POST', '/api/v1/me/servers', { name, host: 'play.example.com', modes })).status).toBe(201)
  }
  const emerald = (await rt.store.servers.bySlug('emerald-valley'))!
  const stone = (await rt.store.servers.bySlug('stone-isle'))!
  await recordVote(rt, stone, 'Alex', ['203.0.113.1'])
  return { rt, app, admin, owner, ownerCookie: alice.headers.cookie, emerald, stone }
}

let ip = 10
const vote = (rt: BackendRuntime, server: { id: string; slug: string; name: string; edition: 'java' | 'bedrock' }, pseudo: string) =>
  recordVote(rt, server, pseudo, [`198.51.100.${++ip}`])

describeBackends('pages kept between requests', (backend) => {
  test('a kept page is the same bytes, with the same headers, as a fresh render, in every language and at every address', async () => {
    const { rt, app } = await site(backend)
    const visitors: Record<string, string>[] = [{}, { 'accept-language': 'fr-FR,fr;q=0.9' }, { cookie: 'votelist_lang=fr' }]
    for (const path of ['/', '/?mode=survival', '/?search=isle', '/?page=3', '/?lang=fr', '/?month=2026-10']) {
      for (const headers of visitors) {
        const first = await page(app, path, headers)
        const kept = await page(app, path, headers)
        // Another app on the same database has kept nothing yet: it renders afresh.
        const fresh = await page(await testApp(rt), path, headers)
        expect(first.status).toBe(200)
        expect(kept).toEqual(first)
        expect(fresh).toEqual(first)
      }
    }
  })

  test('a vote and a ping show on the ranking within 5 s; meanwhile the page kept is served', async () => {
    const { rt, app, emerald } = await site(backend)
    const before = await page(app, '/')
    expect(rowOf(before.body, 'Emerald Valley')).toContain('<strong>0</strong> votes')
    expect(rowOf(before.body, 'Emerald Valley')).toContain('not measured yet')

    await vote(rt, emerald, 'Steve')
    await vote(rt, emerald, 'Notch')
    await rt.rows('INSERT INTO server_status (server_num, online, players_online, players_max, last_ping_at) VALUES (?, 1, 7, 50, ?)', emerald.num, rt.clock.now())
    rt.clock.advance(PAGE_STALE_MS - 1)
    expect((await page(app, '/')).body).toBe(before.body)

    rt.clock.advance(1)
    const after = await page(app, '/')
    expect(rankedNames(after.body)).toEqual(['Emerald Valley', 'Stone Isle'])
    expect(rowOf(after.body, 'Emerald Valley')).toContain('<strong>2</strong> votes')
    expect(rowOf(after.body, 'Emerald Valley')).toContain('7<span class="muted"> / 50</span>')
    expect(after.body).toBe((await page(await testApp(rt), '/')).body)
  })

  test('a server\'s page shows its voters at once, and its rank and month\'s votes within 5 s', async () => {
    const { rt, app, emerald } = await site(backend)
    expect((await page(app, '/serveur/emerald-valley')).body).toContain('<strong>Rank 2</strong> in November 2026 with <strong>0</strong> votes.')
    await vote(rt, emerald, 'Steve')
    await vote(rt, emerald, 'Notch')
    const soon = await page(app, '/serveur/emerald-valley')
    expect(soon.body).toContain('<td>Steve</td>')
    expect(soon.body).toContain('<strong>Rank 2</strong> in November 2026 with <strong>0</strong> votes.')
    rt.clock.advance(PAGE_STALE_MS)
    expect((await page(app, '/serveur/emerald-valley')).body).toContain('<strong>Rank 1</strong> in November 2026 with <strong>2</strong> votes.')
  })

  test('a listing changed by its owner, an administrator or anyone writing the database shows at once', async () => {
    const { rt, app, admin, owner } = await site(backend)
    expect(rankedNames((await page(app, '/')).body)).toEqual(['Stone Isle', 'Emerald Valley'])
    expect((await page(app, '/serveur/emerald-valley')).body).toContain('<strong>Rank 2</strong>')
    expect((await page(app, '/?lang=fr')).status).toBe(200)

    expect((await owner('PATCH', '/api/v1/me/servers/emerald-valley', { name: 'Emerald Peaks' })).status).toBe(200)
    expect(rankedNames((await page(app, '/')).body)).toEqual(['Stone Isle', 'Emerald Peaks'])
    expect((await page(app, '/?lang=fr')).body).toContain('>Emerald Peaks</a>')

    expect((await admin('PATCH', '/api/v1/me/servers/stone-isle', { hidden: true })).status).toBe(200)
    expect(rankedNames((await page(app, '/')).body)).toEqual(['Emerald Peaks'])
    expect((await page(app, '/serveur/stone-isle')).status).toBe(404)
    expect((await page(app, '/serveur/emerald-valley')).body).toContain('<strong>Rank 1</strong>')

    // As the command line, another instance or a statement typed at the database would.
    await rt.rows('UPDATE server SET hidden = 0 WHERE slug = ?', 'stone-isle')
    await rt.rows('UPDATE server SET name = ? WHERE slug = ?', 'Stone Fortress', 'stone-isle')
    expect(rankedNames((await page(app, '/')).body)).toEqual(['Stone Fortress', 'Emerald Peaks'])
    expect((await page(app, '/serveur/emerald-valley')).body).toContain('<strong>Rank 2</strong>')
  })

  test('each visitor gets the page of their own language and address, and nothing of another visitor\'s', async () => {
    const { app, ownerCookie } = await site(backend)
    // A logged-in owner who reads French, on a search of their own.
    const owner = await page(app, '/?search=emerald', { cookie: `${ownerCookie}; votelist_lang=fr`, 'accept-language': 'fr' })
    expect(owner.headers['content-language']).toBe('fr')
    expect(owner.body).toContain('<html lang="fr">')
    expect(owner.headers['set-cookie']).toBeUndefined()
    // The page holds nothing of the session: anyone asking the same address in French gets it.
    expect((await page(app, '/?search=emerald', { cookie: 'votelist_lang=fr' })).body).toBe(owner.body)

    const english = await page(app, '/')
    expect(english.headers['content-language']).toBe('en')
    expect(english.headers.vary).toBe('Accept-Language, Cookie')
    expect(english.body).toContain('<html lang="en">')
    expect(english.body).not.toContain('search=emerald')
    expect(english.body).not.toContain('alice@example.com')
    expect(rankedNames(english.body)).toEqual(['Stone Isle', 'Emerald Valley'])
    // The switcher sends each visitor back to their own address.
    expect(english.body).toContain('href="/language?set=fr&amp;back=%2F"')
    expect((await page(app, '/?page=1')).body).toContain('href="/language?set=fr&amp;back=%2F%3Fpage%3D1"')
    const german = await page(app, '/', { 'accept-language': 'de, fr;q=0.5' })
    expect(german.headers['content-language']).toBe('fr')
    expect(german.body).toContain('<html lang="fr">')
  })

  test('a new month starts with a new page, and a clock set back reads the ranking again', async () => {
    const { rt, app, stone } = await site(backend)
    rt.clock.set(Date.UTC(2026, 10, 30, 23, 59, 59))
    expect((await page(app, '/')).body).toContain('votes in November 2026 (UTC)')
    rt.clock.set(Date.UTC(2026, 11, 1, 0, 0, 1))
    const december = await page(app, '/')
    expect(december.body).toContain('votes in December 2026 (UTC)')
    expect(rowOf(december.body, 'Stone Isle')).toContain('<strong>0</strong> votes')

    expect(rankedNames(december.body)).toEqual(['Emerald Valley', 'Stone Isle'])
    await vote(rt, stone, 'Steve')
    rt.clock.set(Date.UTC(2026, 11, 1, 0, 0, 0))
    expect(rankedNames((await page(app, '/')).body)).toEqual(['Stone Isle', 'Emerald Valley'])
  })

  test('another instance on the same database shows a change made through this one at once', async () => {
    const { rt, app, owner } = await site(backend)
    const other = await siteAgain(rt)
    const otherApp = await testApp(other)
    expect(rankedNames((await page(otherApp, '/')).body)).toEqual(['Stone Isle', 'Emerald Valley'])
    expect((await owner('PATCH', '/api/v1/me/servers/emerald-valley', { name: 'Emerald Peaks' })).status).toBe(200)
    expect(rankedNames((await page(otherApp, '/')).body)).toEqual(['Stone Isle', 'Emerald Peaks'])
    expect(rankedNames((await page(app, '/')).body)).toEqual(['Stone Isle', 'Emerald Peaks'])
  })
})

describe('the cache of rendered pages', () => {
  const sized = (maxSize: number) => createStaleCache<string>({ maxSize, sizeOf: (v) => v.length })

  test('serves a value while its version holds and for less than its time; a clock set back makes it again', async () => {
    const cache = sized(100)
    let made = 0
    const make = () => `value ${++made}`
    expect(await cache.get('a', 1, 1000, make)).toBe('value 1')
    expect(await cache.get('a', 1, 1000 + PAGE_STALE_MS - 1, make)).toBe('value 1')
    expect(await cache.get('a', 2, 1000 + PAGE_STALE_MS - 1, make)).toBe('value 2')
    expect(await cache.get('a', 2, 1000 + 2 * PAGE_STALE_MS - 1, make)).toBe('value 3')
    expect(await cache.get('a', 2, 1000 + PAGE_STALE_MS, make)).toBe('value 4')
    expect(await cache.get('b', 2, 0, make)).toBe('value 5')
  })

  test('keeps at most its size, dropping the least recently served first; a value larger than the whole is not kept', async () => {
    const cache = sized(30)
    for (const key of ['a', 'b', 'c']) await cache.get(key, 1, 0, () => key.repeat(10))
    expect({ size: cache.size, count: cache.count }).toEqual({ size: 30, count: 3 })
    await cache.get('a', 1, 0, () => 'made again')
    await cache.get('d', 1, 0, () => 'd'.repeat(10))
    // b was the least recently served: it is made again; a, c and d were kept.
    const made: string[] = []
    for (const key of ['a', 'c', 'd', 'b']) await cache.get(key, 1, 0, () => { made.push(key); return key.repeat(10) })
    expect(made).toEqual(['b'])
    await cache.get('huge', 1, 0, () => 'x'.repeat(31))
    expect(cache.size).toBeLessThanOrEqual(30)
    let again = false
    await cache.get('huge', 1, 0, () => { again = true; return 'x' })
    expect(again).toBe(true)
  })

  test('requests arriving while a value is being made wait for it; a failure is not kept', async () => {
    const cache = sized(100)
    let made = 0
    let release!: () => void
    const gate = new Promise<void>((r) => { release = r })
    const make = async () => { made++; await gate; return 'slow' }
    const waiting = [cache.get('a', 1, 0, make), cache.get('a', 1, 1, make), cache.get('a', 1, 2, make)]
    // At another version the one being made is out of date: this one is made anew.
    const newer = cache.get('a', 2, 2, async () => 'newer')
    release()
    expect(await Promise.all(waiting)).toEqual(['slow', 'slow', 'slow'])
    expect(await newer).toBe('newer')
    expect(made).toBe(1)

    const failing = cache.get('b', 1, 0, () => Promise.reject(new Error('database gone')))
    await expect(failing).rejects.toThrow('database gone')
    expect(await cache.get('b', 1, 0, () => 'made')).toBe('made')
  })
})
