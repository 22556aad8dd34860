import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { SharedWindowLimiter } from '../../src/cluster/limiter.ts'
import { SlidingWindowLimiter } from '../../src/http/rate-limit.ts'
import { registerSiteWork } from '../../src/site.ts'
import { backends, closeTestSites } from '../backends.ts'
import { call, cleanupTemp, seedServer, siteAgain, siteOn, testApp, type BackendRuntime } from '../helpers.ts'

afterAll(cleanupTemp)
afterEach(closeTestSites)

// Two instances of one site: two pools on one PostgreSQL database, with one clock.
async function twoInstances(input: Parameters<typeof siteOn>[1] = {}) {
  const a = await siteOn('postgres', input)
  const b = await siteAgain(a)
  return [a, b] as const
}

const limiterOf = (rt: BackendRuntime, name: keyof BackendRuntime['limits']) => rt.limits[name] as SharedWindowLimiter

describe.if(backends.includes('postgres'))('limits shared by the instances of a site on PostgreSQL', () => {
  test('every limit of a site is counted in the database', async () => {
    const [a] = await twoInstances()
    for (const limiter of Object.values(a.limits)) expect(limiter).toBeInstanceOf(SharedWindowLimiter)
  })

  test('a key gets `limit` checks a minute whichever instance answers, then 429 on both until the oldest leaves', async () => {
    const [a, b] = await twoInstances({ limits: { keyed_per_minute: 5 } })
    const { key } = await seedServer(a)
    const [appA, appB] = await Promise.all([testApp(a), testApp(b)])
    const check = (app: typeof appA) => call(app, 'GET', '/api/v1/votes/check?pseudo=Steve', { headers: { 'x-api-key': key } })
    const remaining: (string | null)[] = []
    for (const app of [appA, appB, appA, appB, appA]) {
      a.clock.advance(1000)
      const r = await check(app)
      expect(r.status).toBe(200)
      remaining.push(r.headers.get('ratelimit-remaining'))
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0'])
    for (const app of [appA, appB]) {
      const refused = await check(app)
      expect(refused.status).toBe(429)
      expect((await refused.json()).error.code).toBe('RATE_LIMITED')
      // The first check (at +1 s) leaves the window at +61 s: 56 s from +5 s.
      expect(refused.headers.get('retry-after')).toBe('56')
    }
    a.clock.advance(56_000)
    expect((await check(appB)).status).toBe(200)
    expect((await check(appA)).status).toBe(429)
  })

  test('requests at the same moment on both instances: exactly `limit` are allowed', async () => {
    const [a, b] = await twoInstances()
    const limit = 40
    const now = a.clock.now()
    const hits = Array.from({ length: 120 }, (_, i) => new SharedWindowLimiter((i % 2 ? a : b).store.cluster!, 'burst', limit).hit('k', now))
    const decisions = await Promise.all(hits)
    expect(decisions.filter((d) => d.allowed)).toHaveLength(limit)
    expect(decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.retryAfterSeconds === 60)).toBe(true)
  })

  test('no span of the window ever holds more than `limit`, and it allows nearly as many as the exact in-memory limiter', async () => {
    const [a, b] = await twoInstances()
    const limit = 10
    const shared = [a, b].map((rt) => new SharedWindowLimiter(rt.store.cluster!, 'span', limit))
    const exact = new SlidingWindowLimiter(limit)
    const allowed: number[] = []
    let exactAllowed = 0
    // Every 250 ms for 5 minutes, alternating instances, across every minute boundary.
    for (let t = 1_000_000, i = 0; t < 1_300_000; t += 250, i++) {
      if ((await shared[i % 2].hit('k', t)).allowed) allowed.push(t)
      if (exact.hit('k', t).allowed) exactAllowed++
    }
    for (const start of allowed) expect(allowed.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(limit)
    // It refuses at most a bucket (a second a minute) early.
    expect(allowed.length).toBeGreaterThanOrEqual(exactAllowed * 0.95)
    expect(allowed.length).toBeLessThanOrEqual(exactAllowed)
  })

  test('a peek counts nothing; an instance whose clock lags counts in the newest bucket', async () => {
    const [a, b] = await twoInstances()
    const [la, lb] = [a, b].map((rt) => new SharedWindowLimiter(rt.store.cluster!, 'peek', 2))
    expect(await la.peek('k', 10_000)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 0 })
    expect(await a.rows('SELECT * FROM rate_limit')).toEqual([])
    await la.hit('k', 10_000)
    await lb.hit('k', 9_000)
    expect(await a.rows('SELECT counts, lasts FROM rate_limit')).toEqual([{ counts: [2], lasts: ['10000'] }])
    expect(await lb.peek('k', 11_000)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 59 })
    expect(await la.hit('k', 71_000)).toMatchObject({ allowed: true, remaining: 1 })
  })

  test('a public address, a login address and a failing account are limited across instances', async () => {
    const input = { limits: { public_per_minute: 3 }, accounts: { login_attempts_per_minute: 4, failed_logins_per_account: 2 }, http: { trust_proxy: true } }
    const [a, b] = await twoInstances(input)
    const [appA, appB] = await Promise.all([testApp(a), testApp(b)])
    const from = (ip: string) => ({ 'x-forwarded-for': ip })
    const statuses = async (fn: (app: typeof appA) => Promise<Response>) => {
      const out: number[] = []
      for (const app of [appA, appB, appA, appB]) out.push((await fn(app)).status)
      return out
    }
    expect(await statuses((app) => call(app, 'GET', '/api/v1/auth/status', { headers: from('203.0.113.1') }))).toEqual([200, 200, 200, 429])
    await seedServer(a, {}, 'alice@example.com')
    const login = (app: typeof appA, ip: string, password: string) =>
      call(app, 'POST', '/api/v1/auth/login', { headers: from(ip), body: { email: 'alice@example.com', password } })
    // Two failures for the account, from two addresses and two instances: the account is locked.
    expect((await login(appA, '203.0.113.2', 'wrong password 1')).status).toBe(401)
    expect((await login(appB, '203.0.113.3', 'wrong password 2')).status).toBe(401)
    expect((await login(appA, '203.0.113.4', 'correct horse battery')).status).toBe(429)
    // Four attempts from one address, whatever they are, then 429 on either instance.
    expect(await statuses((app) => call(app, 'POST', '/api/v1/auth/login', { headers: from('198.51.100.7'), body: {} }))).toEqual([400, 400, 400, 400])
    expect((await call(appB, 'POST', '/api/v1/auth/login', { headers: from('198.51.100.7'), body: {} })).status).toBe(429)
  })

  test('the once-a-minute sweep forgets the counters whose requests have all left their window', async () => {
    const [a, b] = await twoInstances()
    registerSiteWork(a)
    await new SharedWindowLimiter(a.store.cluster!, 'sweep', 5).hit('old', a.clock.now())
    a.clock.advance(30_000)
    await new SharedWindowLimiter(b.store.cluster!, 'sweep', 5).hit('recent', a.clock.now())
    a.clock.advance(31_000)
    await a.scheduler.runNow('limits.sweep')
    expect(await a.rows('SELECT key FROM rate_limit')).toEqual([{ key: 'recent' }])
  })
})
