import { afterAll, describe, expect, test } from 'bun:test'
import { DASHBOARD_CSP } from '../../src/dashboard/routes.ts'
import { publicPageCsp } from '../../src/http/security-headers.ts'
import { UPLOT_JS } from '../../src/stats/vendor-routes.ts'
import { WIDGET_PATH } from '../../src/captcha/routes.ts'
import { call, cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'
import { as, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

const BROWSER = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }

async function site() {
  const rt = testRuntime({ votes: { captcha: 'pow' }, network: { allow_private_targets: true } })
  const app = await testApp(rt)
  const { server, key } = await seedServer(rt)
  return { rt, app, server, key }
}

const headersOf = (r: Response) => ({
  nosniff: r.headers.get('x-content-type-options'),
  referrer: r.headers.get('referrer-policy'),
  csp: r.headers.get('content-security-policy'),
})

describe('every answer', () => {
  test('carries nosniff and the referrer policy: pages, JSON, files, errors, 404s, the badge', async () => {
    const { app, server, key } = await site()
    const requests: [string, string, Record<string, string>?][] = [
      ['GET', '/', BROWSER],
      ['GET', `/serveur/${server.slug}`, BROWSER],
      ['GET', `/serveur/${server.slug}/voter`, BROWSER],
      ['GET', '/serveur/nope', BROWSER],
      ['GET', '/no/such/page', BROWSER],
      ['GET', '/api/v1/health'],
      ['GET', `/api/v1/servers/${server.slug}`],
      ['GET', `/api/v1/servers/${server.slug}/badge.svg`],
      ['GET', '/api/v1/servers/nope'],
      ['GET', '/api/v1/no-such-endpoint'],
      ['GET', `/api/v1/votes/check?key=${key}`],
      ['GET', `/api/v1/votes/check?key=${key}&pseudo=Steve&format=text`],
      ['GET', '/api/v1/votes/check?key=vlk_wrong&pseudo=Steve'],
      ['GET', '/assets/site.css'],
      ['GET', '/assets/dashboard/app.js'],
      ['GET', UPLOT_JS],
      ['GET', WIDGET_PATH],
      ['GET', '/api/docs', BROWSER],
      ['GET', '/api/docs/json'],
      ['GET', '/dashboard', BROWSER],
      ['HEAD', '/api/v1/health'],
      ['POST', `/serveur/${server.slug}/voter`, { accept: 'application/json', 'content-type': 'application/json' }],
    ]
    for (const [method, path, headers] of requests) {
      const r = await call(app, method, path, { headers, body: method === 'POST' ? '{"pseudo":"x"}' : undefined })
      expect({ method, path, nosniff: r.headers.get('x-content-type-options'), referrer: r.headers.get('referrer-policy') })
        .toEqual({ method, path, nosniff: 'nosniff', referrer: 'strict-origin-when-cross-origin' })
    }
  })

  test('the same over a real socket (static answers included)', async () => {
    const { app, server } = await site()
    app.listen({ hostname: '127.0.0.1', port: 0 })
    try {
      for (const path of ['/assets/site.css', '/api/v1/health', `/serveur/${server.slug}`, '/nope']) {
        const r = await fetch(`http://127.0.0.1:${app.server!.port}${path}`)
        expect({ path, nosniff: r.headers.get('x-content-type-options'), referrer: r.headers.get('referrer-policy') })
          .toEqual({ path, nosniff: 'nosniff', referrer: 'strict-origin-when-cross-origin' })
      }
    } finally {
      await app.stop()
    }
  })
})

describe('framing', () => {
  test('every public HTML page forbids framing; the dashboard keeps its own policy', async () => {
    const { rt, app, server } = await site()
    const csp = publicPageCsp(rt.config)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('unsafe-inline')
    for (const path of ['/', `/serveur/${server.slug}`, `/serveur/${server.slug}/voter`, '/serveur/nope', '/?edition=pocket', '/no/such/page', '/api/docs']) {
      const r = await call(app, 'GET', path, { headers: BROWSER })
      expect({ path, type: r.headers.get('content-type'), csp: r.headers.get('content-security-policy'), frame: r.headers.get('x-frame-options') })
        .toEqual({ path, type: 'text/html; charset=utf-8', csp, frame: 'DENY' })
    }
    // The vote form refused (HTML): still a page that cannot be framed.
    const refused = await call(app, 'POST', `/serveur/${server.slug}/voter`, { headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded' }, body: 'pseudo=x' })
    expect(refused.status).toBe(400)
    expect(refused.headers.get('content-security-policy')).toBe(csp)
    const dashboard = await call(app, 'GET', '/dashboard', { headers: BROWSER })
    expect(headersOf(dashboard)).toEqual({ nosniff: 'nosniff', referrer: 'strict-origin-when-cross-origin', csp: DASHBOARD_CSP })
  })

  test('every route that answers HTML sends a policy that forbids framing (a route added later too)', async () => {
    const { app, server } = await site()
    const paths = app.routes.filter((r) => r.method === 'GET').map((r) => r.path.replace(':slug', server.slug).replace(/:\w+/g, 'x').replace('*', 'x'))
    const html: string[] = []
    for (const path of new Set(paths)) {
      const r = await call(app, 'GET', path, { headers: BROWSER })
      if (!r.headers.get('content-type')?.startsWith('text/html')) continue
      html.push(path)
      expect({ path, csp: r.headers.get('content-security-policy') }).toEqual({ path, csp: expect.stringContaining("frame-ancestors 'none'") })
    }
    expect(html).toEqual(expect.arrayContaining(['/', `/serveur/${server.slug}`, `/serveur/${server.slug}/voter`, '/api/docs', '/dashboard']))
  })

  test('the dual-stack hosts are the only other origins the vote page may talk to', async () => {
    const rt = testRuntime({ site: { ipv4_url: 'https://v4.vote.example.org', ipv6_url: 'https://v6.vote.example.org:8443' } })
    expect(publicPageCsp(rt.config)).toContain("connect-src 'self' https://v4.vote.example.org https://v6.vote.example.org:8443;")
    // Browsers refuse an IPv6 literal in a source list; its scheme is the closest they accept.
    const literal = testRuntime({ site: { ipv4_url: 'http://127.0.0.1:8080', ipv6_url: 'http://[::1]:8080' } })
    expect(publicPageCsp(literal.config)).toContain("connect-src 'self' http://127.0.0.1:8080 http:;")
  })

  test('the JSON API and the badge stay embeddable', async () => {
    const { app, server } = await site()
    for (const path of [`/api/v1/servers/${server.slug}`, `/api/v1/servers/${server.slug}/badge.svg`, '/api/v1/servers/nope']) {
      const r = await call(app, 'GET', path)
      expect({ path, csp: r.headers.get('content-security-policy'), frame: r.headers.get('x-frame-options') }).toEqual({ path, csp: null, frame: null })
    }
  })
})

describe('secrets are not cached', () => {
  test('owner, auth and admin answers, errors included, are no-store', async () => {
    const { rt, app, server } = await site()
    const admin = as(app, (await ownerSession(rt, 'admin@example.com', true)).headers)
    const owner = as(app, (await ownerSession(rt, 'owner2@example.com')).headers)
    await owner('POST', '/api/v1/me/servers', { name: 'Beta', host: 'beta.example.com' })
    const answers: [string, Response, number][] = [
      ['new key', await owner('POST', '/api/v1/me/servers/beta/keys', { name: 'plugin' }), 201],
      ['webhook PUT', await owner('PUT', '/api/v1/me/servers/beta/webhook', { url: 'http://127.0.0.1:8123/hooks/vote' }), 200],
      ['webhook GET', await owner('GET', '/api/v1/me/servers/beta/webhook'), 200],
      ['webhook rotate', await owner('POST', '/api/v1/me/servers/beta/webhook/rotate'), 200],
      ['votifier token', await owner('PUT', '/api/v1/me/servers/beta/votifier', { host: '127.0.0.1', port: 8192, protocol: 'v2' }), 200],
      ['me', await owner('GET', '/api/v1/me'), 200],
      ['another owner\'s server', await owner('GET', `/api/v1/me/servers/${server.slug}`), 403],
      ['admin list', await admin('GET', '/api/v1/admin/users'), 200],
      ['admin list as an owner', await owner('GET', '/api/v1/admin/users'), 403],
      ['no session', await call(app, 'GET', '/api/v1/me'), 401],
      ['login', await call(app, 'POST', '/api/v1/auth/login', { body: { email: 'owner2@example.com', password: 'correct horse battery' } }), 200],
      ['failed login', await call(app, 'POST', '/api/v1/auth/login', { body: { email: 'owner2@example.com', password: 'wrong password!' } }), 401],
      ['status', await call(app, 'GET', '/api/v1/auth/status'), 200],
    ]
    for (const [what, r, status] of answers) {
      expect({ what, status: r.status, cache: r.headers.get('cache-control') }).toEqual({ what, status, cache: 'no-store' })
    }
    const created = await answers[0][1].json() as { key: string }
    expect(created.key).toStartWith('vlk_')
  })

  test('verification answers, errors included, are no-store: no proxy between a plugin and the site may serve a stale hasVoted', async () => {
    // A small limit, so that the key below meets it too.
    const rt = testRuntime({ limits: { keyed_per_minute: 12 } })
    const app = await testApp(rt)
    const { key } = await seedServer(rt)
    app.listen({ hostname: '127.0.0.1', port: 0 })
    try {
      // Over a socket, so that the check's own route (check-route.ts) answers what it answers.
      const get = (path: string, init: RequestInit = {}) => fetch(`http://127.0.0.1:${app.server!.port}${path}`, init)
      const keyed = { headers: { 'X-Api-Key': key } }
      const answers: [string, Response, number][] = [
        ['check (own route)', await get('/api/v1/votes/check?pseudo=Steve', keyed), 200],
        ['check as text (own route)', await get('/api/v1/votes/check?pseudo=Steve&format=text', keyed), 200],
        ['check, handed over', await get('/api/v1/votes/check?pseudo=%53teve', keyed), 200],
        ['check without a key', await get('/api/v1/votes/check?pseudo=Steve'), 401],
        ['check, invalid window', await get('/api/v1/votes/check?pseudo=Steve&window=0', keyed), 400],
        ['claim', await get('/api/v1/votes/claim?pseudo=Steve', { ...keyed, method: 'POST' }), 200],
        ['claim, wrong key', await get('/api/v1/votes/claim?pseudo=Steve', { headers: { 'X-Api-Key': 'vlk_wrong' }, method: 'POST' }), 401],
        ['vote list', await get('/api/v1/votes', keyed), 200],
        ['vote list, invalid limit', await get('/api/v1/votes?limit=0', keyed), 400],
        ['server statistics', await get('/api/v1/server', keyed), 200],
        ['server statistics of a month', await get('/api/v1/server?month=2026-11', keyed), 200],
      ]
      // Then checks until the key's limit refuses one (the own route's refusal), and one more.
      let refused = await get('/api/v1/votes/check?pseudo=Steve', keyed)
      for (let i = 0; i < 10 && refused.status !== 429; i++) refused = await get('/api/v1/votes/check?pseudo=Steve', keyed)
      answers.push(['check over the limit (own route)', refused, 429], ['server statistics over the limit', await get('/api/v1/server', keyed), 429])
      for (const [what, r, status] of answers) {
        expect({ what, status: r.status, cache: r.headers.get('cache-control') }).toEqual({ what, status, cache: 'no-store' })
      }
      // The public API next to them keeps no such header: a server record may be cached.
      expect((await get('/api/v1/servers/nope')).headers.get('cache-control')).toBeNull()
    } finally {
      await app.stop()
    }
  })

  test('public answers keep their own caching', async () => {
    const { app, server } = await site()
    expect((await call(app, 'GET', `/api/v1/servers/${server.slug}/badge.svg`)).headers.get('cache-control')).toBe('public, max-age=60')
    expect((await call(app, 'GET', '/assets/site.css')).headers.get('cache-control')).toBe('public, max-age=3600')
  })
})
