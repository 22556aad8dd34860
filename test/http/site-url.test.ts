import { afterAll, describe, expect, test } from 'bun:test'
import { createSiteUrl } from '../../src/http/site-url.ts'
import { call, cleanupTemp, seedServer, testApp, testConfig, testRuntime } from '../helpers.ts'
import { json } from '../owner/session.ts'

afterAll(cleanupTemp)

const siteUrl = (input: Parameters<typeof testConfig>[0]) => createSiteUrl(testConfig(input))

describe('the site\'s own address', () => {
  test('without site.base_url: links on localhost at the configured port; the loopback names are the site\'s origins', () => {
    const s = siteUrl({ http: { port: 8123 } })
    expect(s.configured).toBe(false)
    expect(s.secure).toBe(false)
    expect(s.base()).toBe('http://localhost:8123')
    expect(s.origins()).toEqual(['http://localhost:8123', 'http://127.0.0.1:8123', 'http://[::1]:8123'])
    // A wildcard listener adds no name of its own.
    expect(siteUrl({ http: { host: '::', port: 8123 } }).origins()).toEqual(s.origins())
  })

  test('a listener on one address or name: links use it, and it is one more origin of the site', () => {
    const lan = siteUrl({ http: { host: '192.168.1.20', port: 8080 } })
    expect(lan.base()).toBe('http://192.168.1.20:8080')
    expect(lan.origins()).toEqual(['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080', 'http://192.168.1.20:8080'])
    const named = siteUrl({ http: { host: 'Votes.Lan', port: 8080 } })
    expect(named.base()).toBe('http://votes.lan:8080')
    expect(named.origins()).toContain('http://votes.lan:8080')
    const v6 = siteUrl({ http: { host: 'fd00::5', port: 8080 } })
    expect(v6.base()).toBe('http://[fd00::5]:8080')
    // Loopback already counted is not listed twice.
    expect(siteUrl({ http: { host: '127.0.0.1', port: 8080 } }).origins()).toHaveLength(3)
  })

  test('port 0: the port actually bound, once the site listens; port 80 is the origin without a port', () => {
    const s = siteUrl({ http: { port: 0 } })
    s.listening(40123)
    expect(s.base()).toBe('http://localhost:40123')
    expect(s.origins()).toContain('http://127.0.0.1:40123')
    const fixed = siteUrl({ http: { port: 8080 } })
    fixed.listening(40123) // a configured port is the port
    expect(fixed.base()).toBe('http://localhost:8080')
    expect(siteUrl({ http: { port: 80 } }).origins()).toEqual(['http://localhost', 'http://127.0.0.1', 'http://[::1]'])
  })

  test('with site.base_url: that address alone, https makes the cookie Secure, and a refusal names it and the key', () => {
    const s = siteUrl({ site: { base_url: 'https://vote.example.org/' }, http: { port: 0 } })
    s.listening(40123)
    expect(s.configured).toBe(true)
    expect(s.secure).toBe(true)
    expect(s.base()).toBe('https://vote.example.org')
    expect(s.origins()).toEqual(['https://vote.example.org'])
    expect(s.refusal('http://127.0.0.1:8080')).toBe('cross-site request refused: it comes from http://127.0.0.1:8080, but this site\'s address is https://vote.example.org (site.base_url): open the site at that address, or change site.base_url')
    expect(siteUrl({}).refusal('http://192.168.1.20:8080')).toBe('cross-site request refused: it comes from http://192.168.1.20:8080, but site.base_url is not set, so this site only answers as http://localhost:8080, http://127.0.0.1:8080, http://[::1]:8080: open one of those, or set site.base_url to the address you use')
  })
})

describe('sign-up from each of the site\'s own origins', () => {
  const register = (app: Awaited<ReturnType<typeof testApp>>, email: string, origin: string) =>
    call(app, 'POST', '/api/v1/auth/register', { body: { email, password: 'correct horse battery' }, headers: { origin } })

  test('without site.base_url, a changed port: localhost, 127.0.0.1 and [::1] on that port all sign up; another port or host is refused, saying what to set', async () => {
    const app = await testApp(testRuntime({ http: { port: 9090 } }))
    expect((await register(app, 'a@example.com', 'http://localhost:9090')).status).toBe(201)
    expect((await register(app, 'b@example.com', 'http://127.0.0.1:9090')).status).toBe(201)
    expect((await register(app, 'c@example.com', 'http://[::1]:9090')).status).toBe(201)
    const refused = await register(app, 'd@example.com', 'http://localhost:8080')
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('site.base_url is not set, so this site only answers as http://localhost:9090')
  })

  test('with site.base_url: only its origin; the refusal says which origin was expected and which key to change', async () => {
    const app = await testApp(testRuntime({ site: { base_url: 'https://vote.example.org' } }))
    expect((await register(app, 'a@example.com', 'https://vote.example.org')).status).toBe(201)
    const refused = await register(app, 'b@example.com', 'http://localhost:8080')
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'cross-site request refused: it comes from http://localhost:8080, but this site\'s address is https://vote.example.org (site.base_url): open the site at that address, or change site.base_url', reason: 'CROSS_SITE' },
    })
  })

  test('vote and badge URLs follow the default address; the vote form accepts each own origin', async () => {
    const rt = testRuntime({ http: { port: 9090 } })
    const app = await testApp(rt)
    const r = await register(app, 'owner@example.com', 'http://127.0.0.1:9090')
    const cookie = r.headers.get('set-cookie')!.split(';')[0]
    const created = await call(app, 'POST', '/api/v1/me/servers', { body: { name: 'Emerald Valley', host: 'play.example.com' }, headers: { cookie, origin: 'http://[::1]:9090' } })
    const { server } = (await created.json()) as { server: { voteUrl: string; badgeUrl: string } }
    expect(server.voteUrl).toBe('http://localhost:9090/serveur/emerald-valley/voter')
    expect(server.badgeUrl).toBe('http://localhost:9090/api/v1/servers/emerald-valley/badge.svg')
    const vote = (origin: string, pseudo: string) => call(app, 'POST', '/serveur/emerald-valley/voter', { body: { pseudo }, headers: { origin, accept: 'application/json', 'x-forwarded-for': pseudo } })
    expect((await vote('http://127.0.0.1:9090', 'Steve')).status).toBe(201)
    expect(await json(await vote('http://localhost:9091', 'Alex'))).toEqual({
      status: 403,
      body: { ok: false, error: { code: 'FORBIDDEN', message: 'cross-site vote refused: it comes from http://localhost:9091, but votes are only accepted from this site\'s own vote page at http://localhost:9090, http://127.0.0.1:9090, http://[::1]:9090 (site.base_url is not set): open the vote page there, or set site.base_url', reason: 'CROSS_SITE' } },
    })
  })

  test('with site.base_url: a vote from another origin is refused, naming the expected origin and the key', async () => {
    const rt = testRuntime({ site: { base_url: 'https://vote.example.org' } })
    const app = await testApp(rt)
    await seedServer(rt, { name: 'Emerald Valley' })
    const vote = (origin: string) => call(app, 'POST', '/serveur/emerald-valley/voter', { body: { pseudo: 'Steve' }, headers: { origin, accept: 'application/json' } })
    expect(await json(await vote('http://127.0.0.1:8080'))).toEqual({
      status: 403,
      body: { ok: false, error: { code: 'FORBIDDEN', message: 'cross-site vote refused: it comes from http://127.0.0.1:8080, but votes are only accepted from this site\'s own vote page at https://vote.example.org (set by site.base_url): open the vote page there, or change site.base_url', reason: 'CROSS_SITE' } },
    })
    expect((await vote('https://vote.example.org')).status).toBe(201)
  })
})
