import { afterAll, describe, expect, test } from 'bun:test'
import type { Server } from '../../src/servers/repo.ts'
import { recordVote } from '../../src/votes/service.ts'
import { call, cleanupTemp, seedServer, testApp, testRuntime, type TestRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

const get = async (app: Awaited<ReturnType<typeof testApp>>, path: string) => {
  const r = await call(app, 'GET', path)
  return { status: r.status, type: r.headers.get('content-type'), body: await r.text() }
}

function setStatus(rt: TestRuntime, server: Server, online: boolean, players: number, max: number) {
  rt.db.run(`INSERT OR REPLACE INTO server_status (server_num, online, players_online, players_max, last_ping_at) VALUES (?, ?, ?, ?, ?)`,
    [server.num, online ? 1 : 0, players, max, rt.clock.now()])
}

let ip = 0
const vote = (rt: TestRuntime, s: Server, pseudo: string) => {
  rt.clock.advance(1000)
  return recordVote(rt, s, pseudo, [`198.51.100.${++ip % 250}`])
}

// Names as they appear in the ranking table, in order.
const rankedNames = (body: string) => [...body.matchAll(/<h2 class="server-name"><a href="\/serveur\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1])

describe('the ranking page', () => {
  test('lists the current month by votes, with filters, search and paging; metadata for search engines', async () => {
    const rt = testRuntime({ site: { base_url: 'https://list.example.org' }, servers: { modes: ['survival', 'pvp', 'skyblock'] } })
    const alpha = (await seedServer(rt, { name: 'Alpha Valley', modes: ['survival'] })).server
    const bravo = (await seedServer(rt, { name: 'Bravo Realm', edition: 'bedrock', modes: ['skyblock'] })).server
    const charlie = (await seedServer(rt, { name: 'Charlie Craft', modes: ['pvp', 'survival'] })).server
    vote(rt, bravo, 'One'); vote(rt, bravo, 'Two'); vote(rt, charlie, 'Three')
    setStatus(rt, bravo, true, 12, 100)
    setStatus(rt, charlie, false, 0, 0)
    const app = await testApp(rt)

    const page = await get(app, '/')
    expect(page.status).toBe(200)
    expect(page.type).toBe('text/html; charset=utf-8')
    expect(rankedNames(page.body)).toEqual(['Bravo Realm', 'Charlie Craft', 'Alpha Valley'])
    expect(page.body).toContain('<title>My Server List</title>')
    expect(page.body).toContain('<link rel="canonical" href="https://list.example.org/">')
    expect(page.body).toMatch(/<meta name="description" content="[^"]{40,}">/)
    expect(page.body).toContain('<meta property="og:title"')
    expect(page.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(page.body).toContain('<link rel="stylesheet" href="/assets/site.css">')
    expect(page.body).toContain('id="global-players"')
    expect(page.body).not.toMatch(/(src|href)="https?:\/\/(?!list\.example\.org)/) // nothing from another host
    expect(page.body).toContain('12<span class="muted"> / 100</span></span><span class="muted"> players</span>')
    expect(page.body).toContain('status-offline')
    expect(page.body).toContain('not measured yet')

    expect(rankedNames((await get(app, '/?edition=bedrock')).body)).toEqual(['Bravo Realm'])
    expect(rankedNames((await get(app, '/?mode=survival')).body)).toEqual(['Charlie Craft', 'Alpha Valley'])
    expect(rankedNames((await get(app, '/?search=VALL')).body)).toEqual(['Alpha Valley'])
    const filtered = await get(app, '/?search=zzz')
    expect(filtered.body).toContain('No server matches these filters.')
    expect(filtered.body).toContain('<meta name="robots" content="noindex">')

    for (let i = 0; i < 60; i++) await seedServer(rt, { name: `Filler ${String(i).padStart(2, '0')}` })
    const first = await get(app, '/')
    expect(rankedNames(first.body)).toHaveLength(50)
    expect(first.body).toContain('href="/?page=2"')
    const second = await get(app, '/?page=2')
    expect(rankedNames(second.body)).toHaveLength(13)
    expect(second.body).toContain('<span class="visually-hidden">Rank 63</span><span aria-hidden="true">63</span>')
    expect(second.body).toContain('<link rel="canonical" href="https://list.example.org/?page=2">')
    expect((await get(app, '/?page=9')).body).toContain('There is no page 9.')
    expect(alpha.slug).toBe('alpha-valley')
  })

  test('a page past the end says so and leads back, with no pager pointing at more missing pages', async () => {
    const rt = testRuntime()
    for (let i = 0; i < 51; i++) await seedServer(rt, { name: `Filler ${String(i).padStart(2, '0')}`, modes: ['pvp'] })
    const app = await testApp(rt)
    const past = await get(app, '/?mode=pvp&page=9')
    expect(past.body).toContain('<p class="notice">There is no page 9. <a href="/?mode=pvp">Back to the first page</a>.</p>')
    expect(past.body).not.toContain('class="pager"')
    expect(past.body).not.toContain('page=8')
    // The last page keeps its pager.
    expect((await get(app, '/?mode=pvp&page=2')).body).toContain('<span class="muted">Page 2 of 2</span>')
  })

  test('a server\'s description cut for the meta description never splits an emoji into a broken character', async () => {
    const rt = testRuntime()
    const { server } = await seedServer(rt, { name: 'Emoji Land', description: `${'a'.repeat(100)}${'😀'.repeat(60)}` })
    const body = (await get(await testApp(rt), `/serveur/${server.slug}`)).body
    expect(body).not.toContain('\uFFFD')
    expect(body).toContain(`<meta name="description" content="${'a'.repeat(100)}${'😀'.repeat(29)}…">`)
  })

  test('a search finds a name written with accented capitals, as typed or in another case', async () => {
    const rt = testRuntime()
    await seedServer(rt, { name: 'Émeraude Valley' })
    await seedServer(rt, { name: 'ÉTOILE' })
    await seedServer(rt, { name: 'Alpha' })
    const app = await testApp(rt)
    const found = async (search: string) => rankedNames((await get(app, `/?search=${encodeURIComponent(search)}`)).body)
    expect(await found('Émeraude')).toEqual(['Émeraude Valley'])
    expect(await found('ÉMERAUDE')).toEqual(['Émeraude Valley'])
    expect(await found('émeraude valley')).toEqual(['Émeraude Valley'])
    expect(await found('Étoile')).toEqual(['ÉTOILE'])
    expect(await found('étoile')).toEqual(['ÉTOILE'])
    expect(await found('ALPHA')).toEqual(['Alpha'])
  })

  test('bad query parameters get a friendly 400 page naming the parameter, never a stack or JSON', async () => {
    const rt = testRuntime()
    const app = await testApp(rt)
    const cases: [string, string][] = [
      ['/?edition=pocket', 'Edition must be &quot;java&quot; or &quot;bedrock&quot;'],
      ['/?mode=knitting', 'Mode must be one of: survival'],
      ['/?page=0', 'Page must be a whole number from 1'],
      ['/?page=abc', 'Page must be a whole number from 1'],
      [`/?search=${'x'.repeat(65)}`, 'Search must be at most 64 characters long'],
      ['/?month=2026-13', 'Month must be a month written YYYY-MM'],
      ['/?month=2027-01', 'up to the current month (2026-11)'],
    ]
    for (const [path, message] of cases) {
      const r = await get(app, path)
      expect(r.status).toBe(400)
      expect(r.type).toBe('text/html; charset=utf-8')
      expect(r.body).toContain(message)
      expect(r.body).toContain('<meta name="robots" content="noindex">')
      expect(r.body).not.toMatch(/Error|\n\s+at /)
    }
  })

  test('a page number past the last one the site takes is refused with the range it takes', async () => {
    const app = await testApp(testRuntime())
    const r = await get(app, '/?page=1000000')
    expect(r.status).toBe(400)
    expect(r.body).toContain('<p>Page must be a whole number from 1 to 999999.</p>')
    expect((await get(app, '/?page=999999')).status).toBe(200)
  })

  test('past months stay queryable with their own ranks and counts', async () => {
    const rt = testRuntime({}, Date.UTC(2026, 9, 20))
    const a = (await seedServer(rt, { name: 'Alpha' })).server
    const b = (await seedServer(rt, { name: 'Bravo' })).server
    vote(rt, a, 'Steve'); vote(rt, a, 'Alex')
    rt.clock.set(Date.UTC(2026, 10, 3))
    vote(rt, b, 'Steve')
    const app = await testApp(rt)
    expect(rankedNames((await get(app, '/')).body)).toEqual(['Bravo', 'Alpha'])
    const october = await get(app, '/?month=2026-10')
    expect(rankedNames(october.body)).toEqual(['Alpha', 'Bravo'])
    expect(october.body).toContain('Minecraft server ranking, October 2026')
    expect(october.body).toContain('href="/serveur/alpha?month=2026-10"')
    const server = await get(app, '/serveur/alpha?month=2026-10')
    expect(server.body).toContain('<strong>Rank 1</strong> in October 2026 with <strong>2</strong> votes.')
    expect(server.body).toMatch(/<td>Steve<\/td><td class="num">1<\/td>/)
    expect((await get(app, '/serveur/alpha')).body).toContain('<strong>Rank 2</strong> in November 2026 with <strong>0</strong> votes.')
  })

  test('a past month before any server was listed says so of that month, not that none is listed yet', async () => {
    const rt = testRuntime()
    await seedServer(rt, { name: 'Alpha' })
    const app = await testApp(rt)
    const past = (await get(app, '/?month=2020-01')).body
    expect(past).toContain('<p class="notice">No server was listed in January 2020.</p>')
    expect(past).not.toContain('No server is listed yet')
  })

  test('a page past the end of the list says so, and is not indexed', async () => {
    // (With site.base_url, which the canonical address needs.)
    const rt = testRuntime({ site: { base_url: 'https://vote.example.org' } })
    await seedServer(rt, { name: 'Alpha' })
    const app = await testApp(rt)
    const past = await get(app, '/?page=9')
    expect(past.status).toBe(200)
    expect(past.body).toContain('<meta name="robots" content="noindex">')
    expect(past.body).not.toContain('rel="canonical"')
    const first = await get(app, '/')
    expect(first.body).not.toContain('noindex')
    expect(first.body).toContain('rel="canonical"')
  })

  // Date.UTC reads the years 0 to 99 as 1900 to 1999: month=0050-01 linked back to 1949-12.
  test('a month of the years 0 to 99 is that month: its neighbours, and no month before 0000-01', async () => {
    const rt = testRuntime()
    await seedServer(rt, { name: 'Alpha' })
    const app = await testApp(rt)
    const monthLinks = (body: string) => [...body.matchAll(/class="month-nav"[\s\S]*?<\/nav>/g)].flatMap((nav) => [...nav[0].matchAll(/month=(\d{4}-\d{2})/g)].map((m) => m[1]))
    for (const path of ['/', '/serveur/alpha']) {
      expect({ path, links: monthLinks((await get(app, `${path}?month=0050-01`)).body) }).toEqual({ path, links: ['0049-12', '0050-02'] })
      expect({ path, links: monthLinks((await get(app, `${path}?month=0100-01`)).body) }).toEqual({ path, links: ['0099-12', '0100-02'] })
      expect({ path, links: monthLinks((await get(app, `${path}?month=0000-01`)).body) }).toEqual({ path, links: ['0000-02'] })
      expect({ path, links: monthLinks((await get(app, `${path}?month=2025-12`)).body) }).toEqual({ path, links: ['2025-11', '2026-01'] })
    }
  })
})

describe('the server page', () => {
  test('shows everything a player needs, escaped; hostile names and descriptions render inert', async () => {
    const rt = testRuntime()
    const { server } = await seedServer(rt, {
      name: '<script>alert(1)</script>', host: 'play.example.com', port: 25570, version: '1.21.4', modes: ['pvp', 'survival'],
      description: 'Welcome!\n<img src=x onerror=alert(2)>\nSecond line', website: 'https://example.com/?a="><script>alert(3)</script>',
    })
    vote(rt, server, 'Notch'); vote(rt, server, '_jeb_')
    const app = await testApp(rt)
    const page = await get(app, `/serveur/${server.slug}`)
    expect(page.status).toBe(200)
    expect(page.body).not.toContain('<script>alert')
    expect(page.body).not.toContain('<img src=x')
    expect(page.body).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>')
    expect(page.body).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;: Minecraft Java server · My Server List</title>')
    expect(page.body).toContain('<p class="description">Welcome!\n&lt;img src=x onerror=alert(2)&gt;\nSecond line</p>')
    expect(page.body).toContain('<code id="server-address">play.example.com:25570</code>')
    expect(page.body).toContain('data-copy="server-address"')
    expect(page.body).toContain('<dt>Version</dt><dd>1.21.4</dd>')
    expect(page.body).toContain('<dt>Game modes</dt><dd>pvp, survival</dd>')
    expect(page.body).toMatch(/<a href="https:\/\/example\.com\/\?a=%22%3E%3Cscript%3Ealert\(3\)%3C\/script%3E" rel="nofollow ugc noopener">/)
    expect(page.body).toContain('<strong>Rank 1</strong> in November 2026 with <strong>2</strong> votes.')
    expect(page.body).toContain('<td>Notch</td>')
    expect(page.body).toContain('<td>_jeb_</td>')
    expect(page.body).toContain(`<div id="history" class="stats-slot" data-slug="${server.slug}">`)
    expect(page.body).toContain(`<a href="/api/v1/servers/${server.slug}/history?range=7d&amp;format=csv" download>`)
    expect(page.body).toContain('Not measured yet')
    expect(page.body).toContain(`href="/serveur/${server.slug}/voter"`)
    // site.base_url is not set: the site does not know its public address, so it names none.
    expect(page.body).not.toContain('rel="canonical"')
    expect(page.body).not.toContain('og:url')

    setStatus(rt, server, true, 7, 50)
    expect((await get(app, `/serveur/${server.slug}`)).body).toContain('<span class="status status-online">Online</span>, 7 / 50 players')
    setStatus(rt, server, false, 0, 0)
    expect((await get(app, `/serveur/${server.slug}`)).body).toContain('<span class="status status-offline">Offline</span>')
  })

  test('unknown and hidden servers get a real 404 HTML page, on every page of the server', async () => {
    const rt = testRuntime()
    const { server } = await seedServer(rt, { name: 'Secret Base' })
    const app = await testApp(rt)
    for (const path of ['/serveur/no-such-server', '/serveur/no-such-server/voter']) {
      const r = await get(app, path)
      expect(r.status).toBe(404)
      expect(r.type).toBe('text/html; charset=utf-8')
      expect(r.body).toContain('<h1>Page not found</h1>')
      expect(r.body).toContain('no-such-server')
    }
    expect((await get(app, `/serveur/${server.slug}`)).status).toBe(200)
    rt.db.run('UPDATE server SET hidden = 1 WHERE id = ?', [server.id])
    expect((await get(app, `/serveur/${server.slug}`)).status).toBe(404)
    expect((await get(app, `/serveur/${server.slug}/voter`)).status).toBe(404)
    expect(rankedNames((await get(app, '/')).body)).toEqual([])
  })
})

describe('the vote page', () => {
  test('pre-fills the pseudo from the link, escaped, and states the rules', async () => {
    const rt = testRuntime()
    const { server } = await seedServer(rt, { name: 'Emerald Valley' })
    const app = await testApp(rt)
    const page = await get(app, `/serveur/${server.slug}/voter?pseudo=Steve`)
    expect(page.status).toBe(200)
    expect(page.body).toContain('<input id="pseudo" name="pseudo" value="Steve"')
    expect(page.body).toContain(`<form class="card" method="post" action="/serveur/${server.slug}/voter"`)
    expect(page.body).toContain('every 2 hours')
    expect(page.body).not.toContain('altcha-widget') // captcha off in tests
    const hostile = await get(app, `/serveur/${server.slug}/voter?pseudo=${encodeURIComponent('"><script>')}`)
    expect(hostile.body).toContain('value="&quot;&gt;&lt;script&gt;"')
  })

  test('with the captcha on, the page loads the self-hosted widget and its challenge from this site', async () => {
    const rt = testRuntime({ votes: { captcha: 'pow' } })
    const { server } = await seedServer(rt)
    const app = await testApp(rt)
    const page = await get(app, `/serveur/${server.slug}/voter`)
    const src = /<script type="module" src="(\/vendor\/altcha-[\d.]+\.min\.js)"><\/script>/.exec(page.body)?.[1]
    expect(src).toBeString()
    expect(page.body).toContain('<altcha-widget challenge="/api/v1/vote-challenge" name="altcha" auto="onload" language="en"></altcha-widget>')
    const widget = await call(app, 'GET', src!)
    expect(widget.status).toBe(200)
    expect(widget.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const script = await widget.text()
    expect(script.length).toBeGreaterThan(50_000)
    // Under the pages' CSP the widget's stylesheet and proof-of-work worker are files of the site.
    const css = /<link rel="stylesheet" href="(\/vendor\/altcha-[\d.]+\.css)">/.exec(page.body)?.[1]
    const worker = /new Worker\("(\/vendor\/altcha-[\d.]+-pbkdf2\.js)"\)/.exec(script)?.[1]
    for (const [path, type] of [[css!, 'text/css; charset=utf-8'], [worker!, 'text/javascript; charset=utf-8']]) {
      const r = await call(app, 'GET', path)
      expect({ path, status: r.status, type: r.headers.get('content-type') }).toEqual({ path, status: 200, type })
    }
  })
})

describe('assets', () => {
  test('the stylesheet and the enhancement script are served from /assets', async () => {
    const app = await testApp(testRuntime())
    const css = await call(app, 'GET', '/assets/site.css')
    expect(css.status).toBe(200)
    expect(await css.text()).toContain('--accent')
    expect((await call(app, 'GET', '/assets/site.js')).status).toBe(200)
  })
})
