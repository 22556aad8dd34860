import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { ApiError } from '../../src/http/errors.ts'
import { enforceRateLimit, SlidingWindowLimiter, withRateLimitHeaders } from '../../src/http/rate-limit.ts'
import { registerSiteWork } from '../../src/site.ts'
import { cleanupTemp, testRuntime } from '../helpers.ts'
import { until } from '../until.ts'

describe('sliding-window rate limiter', () => {
  test('allows `limit` requests in a window, then refuses with Retry-After until the oldest leaves', () => {
    const l = new SlidingWindowLimiter(3, 60_000)
    const t0 = 1_000_000
    expect([0, 10_000, 20_000].map((dt) => l.hit('k', t0 + dt).remaining)).toEqual([2, 1, 0])
    const refused = l.hit('k', t0 + 30_000)
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 30 })
    expect(l.hit('k', t0 + 59_999).allowed).toBe(false)
    expect(l.hit('k', t0 + 60_000).allowed).toBe(true)
    expect(l.hit('other', t0).remaining).toBe(2)
  })

  test('no 2× burst across a window edge: any 60 s span holds at most `limit` allowed requests', () => {
    const limit = 10
    const l = new SlidingWindowLimiter(limit, 60_000)
    const allowed: number[] = []
    // Hammer every 250 ms for 5 minutes, including the seconds around each minute boundary.
    for (let t = 0; t < 300_000; t += 250) if (l.hit('k', t).allowed) allowed.push(t)
    for (let i = 0; i < allowed.length; i++) {
      const inSpan = allowed.filter((t) => t >= allowed[i] && t < allowed[i] + 60_000).length
      expect(inSpan).toBeLessThanOrEqual(limit)
    }
    expect(allowed.length).toBe(50)
  })

  test('a key keeps only the requests inside its window, however high its limit', () => {
    const l = new SlidingWindowLimiter(1_000_000, 1000)
    for (let t = 0; t < 100_000; t++) expect(l.hit('k', t).remaining).toBe(1_000_000 - Math.min(t + 1, 1000))
    // The ring is private; its capacity is the memory the key holds: about one window's requests
    // (1,000), not the 100,000 made.
    const ring = (l as unknown as { rings: Map<string, { times: Float64Array; size: number }> }).rings.get('k')!
    expect(ring.size).toBe(1000)
    expect(ring.times.length).toBeLessThanOrEqual(2048)
  })

  test('refused requests do not use the quota; sweep forgets idle keys', () => {
    const l = new SlidingWindowLimiter(2, 1000)
    l.hit('a', 0); l.hit('a', 0)
    for (let i = 0; i < 100; i++) l.hit('a', 500)
    expect(l.hit('a', 1000).allowed).toBe(true)
    expect(l.sweep(1500)).toBe(1)
    expect(l.sweep(2001)).toBe(0)
  })

  test('enforceRateLimit returns the RateLimit headers, or throws 429 RATE_LIMITED with Retry-After', () => {
    const l = new SlidingWindowLimiter(1, 60_000)
    expect(enforceRateLimit(l, 'k', 0)).toEqual({ 'RateLimit-Limit': '1', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '60' })
    let err: ApiError | undefined
    try { enforceRateLimit(l, 'k', 15_000) } catch (e) { err = e as ApiError }
    expect(err?.status).toBe(429)
    expect(err?.errorCode).toBe('RATE_LIMITED')
    expect(err?.headers).toEqual({ 'RateLimit-Limit': '1', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '45', 'Retry-After': '45' })
  })
})

describe('sliding-window rate limiter against a plain list of allowed times', () => {
  // The model: allowed when fewer than `limit` allowed requests lie in (now - window, now].
  // Rings start with a few slots and grow: each run has its own request rate (from bursts that
  // fill the ring to a trickle that lets the window empty), which covers growth and wrap-around.
  test('decides, counts and reports exactly as the model, for any limit and request times', () => {
    const run = fc.integer({ min: 1, max: 40 }).chain((limit) => fc.integer({ min: 0, max: 40_000 }).chain((maxGap) => fc.record({
      limit: fc.constant(limit),
      steps: fc.array(fc.record({ gap: fc.integer({ min: 0, max: maxGap }), key: fc.constantFrom('a', 'b'), count: fc.boolean() }), { maxLength: 400, size: 'max' }),
    })))
    fc.assert(fc.property(run, ({ limit, steps }) => {
      const window = 60_000
      const l = new SlidingWindowLimiter(limit, window)
      const model: Record<string, number[]> = { a: [], b: [] }
      let now = 1_000_000
      for (const { gap, key, count } of steps) {
        now += gap
        const inWindow = model[key].filter((t) => t > now - window)
        const allowed = inWindow.length < limit
        const d = l.hit(key, now, count)
        expect(d.allowed).toBe(allowed)
        if (allowed && count) { model[key].push(now); inWindow.push(now) }
        expect(d.remaining).toBe(limit - inWindow.length)
        expect(d.resetSeconds).toBe(Math.max(0, Math.ceil(((inWindow[0] ?? now) + window - now) / 1000)))
      }
    }), { numRuns: 300 })
  })
})

describe('public rate limit macro', () => {
  test('per client address (IPv6 per /64), with RateLimit headers, 429 past the limit', async () => {
    const { Elysia } = await import('elysia')
    const { publicRateLimit } = await import('../../src/http/public-limit.ts')
    const { errorHandler } = await import('../../src/http/error-handler.ts')
    const { testRuntime, call, cleanupTemp } = await import('../helpers.ts')
    const rt = testRuntime({ limits: { public_per_minute: 2 }, http: { trust_proxy: true } })
    const app = new Elysia().use(errorHandler(rt.log)).use(publicRateLimit(rt)).get('/p', () => ({ ok: true }), { publicLimited: true })
    const from = (ip: string) => call(app, 'GET', '/p', { headers: { 'x-forwarded-for': ip } })
    const first = await from('2001:db8:1:1::1')
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-remaining')).toBe('1')
    expect((await from('2001:db8:1:1::2')).status).toBe(200)
    const third = await from('2001:db8:1:1:ffff::3')
    expect(third.status).toBe(429)
    expect(third.headers.get('retry-after')).toBe('60')
    expect((await third.json()).error.code).toBe('RATE_LIMITED')
    expect((await from('2001:db8:1:2::1')).status).toBe(200)
    cleanupTemp()
  })

  test('a request refused by validation counts too and carries the headers', async () => {
    const { Elysia, t } = await import('elysia')
    const { publicRateLimit } = await import('../../src/http/public-limit.ts')
    const { errorHandler } = await import('../../src/http/error-handler.ts')
    const { testRuntime, call, cleanupTemp } = await import('../helpers.ts')
    const rt = testRuntime({ limits: { public_per_minute: 2 } })
    const app = new Elysia().use(errorHandler(rt.log)).use(publicRateLimit(rt))
      .get('/p', ({ query }) => ({ n: query.n }), { publicLimited: true, query: t.Object({ n: t.String({ pattern: '^[0-9]+$' }) }) })
    const bad = await call(app, 'GET', '/p?n=x')
    expect(bad.status).toBe(400)
    expect([bad.headers.get('ratelimit-limit'), bad.headers.get('ratelimit-remaining')]).toEqual(['2', '1'])
    expect((await call(app, 'GET', '/p?n=1')).headers.get('ratelimit-remaining')).toBe('0')
    const limited = await call(app, 'GET', '/p?n=x')
    expect(limited.status).toBe(429)
    expect((await limited.json()).error.code).toBe('RATE_LIMITED')
    cleanupTemp()
  })
})

describe('peek', () => {
  test('tells what a hit would decide without counting, and keeps nothing for unknown keys', () => {
    const l = new SlidingWindowLimiter(2, 60_000)
    expect(l.peek('k', 0)).toMatchObject({ allowed: true, remaining: 2 })
    expect(l.sweep(0)).toBe(0)
    l.hit('k', 0)
    l.hit('k', 1000)
    expect(l.peek('k', 2000)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 58 })
    expect(l.peek('k', 2000)).toMatchObject({ allowed: false, remaining: 0 })
    expect(l.peek('k', 60_000)).toMatchObject({ allowed: true, remaining: 1 })
    expect(l.hit('k', 60_000)).toMatchObject({ allowed: true, remaining: 0 })
  })
})

describe('the sweep of the site\'s limiters', () => {
  test('every limiter of the site forgets its idle keys, with none left out', async () => {
    const rt = testRuntime()
    registerSiteWork(rt)
    const swept: string[] = []
    for (const [name, limiter] of Object.entries(rt.limits)) {
      // One SQLite process keeps every limit in memory.
      expect(limiter).toBeInstanceOf(SlidingWindowLimiter)
      ;(limiter as SlidingWindowLimiter).sweep = () => { swept.push(name); return 0 }
    }
    await rt.scheduler.runNow('limits.sweep')
    expect(swept.sort()).toEqual(Object.keys(rt.limits).sort())
    expect(swept).toContain('testVotes')
    cleanupTemp()
  })
})

describe('withRateLimitHeaders', () => {
  // It sets the values on one prepared Headers per limit, relying on a Response copying the
  // headers it is made with: an answer made first and sent last must keep its own values.
  test('each answer keeps its own values, even one sent after the next answer was made', async () => {
    const base = new Headers({ 'content-type': 'text/plain' })
    const decision = (remaining: number, resetSeconds: number) => ({ allowed: true, limit: 600, remaining, resetSeconds, retryAfterSeconds: 0 })
    let release!: () => void
    const secondMade = new Promise<void>((resolve) => (release = resolve))
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch(request) {
        const first = new URL(request.url).pathname === '/first'
        const answer = new Response('x', { headers: withRateLimitHeaders(base, first ? decision(599, 60) : decision(598, 59)) })
        if (first) await secondMade
        else release()
        return answer
      },
    })
    try {
      const first = fetch(`http://127.0.0.1:${server.port}/first`)
      await until(() => server.pendingRequests === 1, 'the first request waiting')
      const second = await fetch(`http://127.0.0.1:${server.port}/second`)
      const seen = (r: Response) => ['limit', 'remaining', 'reset'].map((n) => r.headers.get(`ratelimit-${n}`))
      expect(seen(await first)).toEqual(['600', '599', '60'])
      expect(seen(second)).toEqual(['600', '598', '59'])
      expect(base.has('ratelimit-remaining')).toBe(false)
    } finally {
      server.stop(true)
    }
  })
})
