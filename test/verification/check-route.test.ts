import { afterAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { checkRoute } from '../../src/verification/check-route.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'

afterAll(cleanupTemp)

// The check endpoint's own route (in front of the framework) must answer exactly what the
// framework's route answers, and count each request once against the key's limit. Every request
// below is asked of both, the route first: the framework's answer then has one request more
// counted, and nothing else differs.

interface Answer {
  status: number
  body: string
  headers: Record<string, string>
}

async function read(r: Response): Promise<Answer> {
  const headers: Record<string, string> = {}
  r.headers.forEach((v, k) => { headers[k] = v })
  delete headers.date
  delete headers['content-length']
  return { status: r.status, body: await r.text(), headers }
}

async function setup(backend: Backend, limit = 1_000_000) {
  const rt = await siteOn(backend, { limits: { keyed_per_minute: limit } })
  const seeded = await seedServer(rt)
  await recordVote(rt, seeded.server, 'Steve', ['203.0.113.7'])
  await recordVote(rt, seeded.server, 'Alex', ['2001:db8::1'])
  const app = await testApp(rt)
  let handedOver = 0
  const route = checkRoute(rt, (request) => {
    handedOver++
    return app.handle(request)
  })
  // Both sides get requests for the same URL and headers.
  const ask = async (query: string, headers: Record<string, string> = { 'X-Api-Key': seeded.key }) => {
    const url = `http://votelist.test/api/v1/votes/check${query}`
    const before = handedOver
    const own = await read(await route(new Request(url, { headers })))
    const answered = handedOver === before
    const framework = await read(await app.handle(new Request(url, { headers })))
    return { own, framework, answered }
  }
  return { rt, app, ...seeded, ask }
}

// The framework's answer counted one more request than the route's (both counted theirs).
function expectSame(a: { own: Answer; framework: Answer }) {
  const remaining = a.own.headers['ratelimit-remaining']
  if (remaining !== undefined && a.own.status !== 429) {
    expect(Number(a.framework.headers['ratelimit-remaining'])).toBe(Number(remaining) - 1)
    a.framework.headers['ratelimit-remaining'] = remaining
  }
  expect(a.own).toEqual(a.framework)
}

describeBackends('the check endpoint\'s own route', (backend) => {
  test('answers the usual requests itself, exactly as the framework\'s route does', async () => {
    const s = await setup(backend)
    const key = s.key
    const usual: [string, Record<string, string>?][] = [
      ['?pseudo=Steve'], ['?pseudo=steve&format=text'], ['?pseudo=Nobody'], ['?pseudo=Nobody&format=text'], ['?pseudo=Steve&format=json'],
      ['?pseudo=Steve&window=60'], ['?pseudo=Steve&duration=1440'], ['?pseudo=Steve&window=30&duration=30'],
      ['?ip=203.0.113.7'], ['?ip=2001:db8::ffff'], ['?pseudo=Steve&ip=203.0.113.7'], ['?pseudo=Alex&ip=203.0.113.7'],
      [`?pseudo=Steve&key=${key}`, {}], ['?pseudo=Steve', { Authorization: `Bearer ${key}` }],
      [`?pseudo=Steve&key=${key}`, { 'X-Api-Key': key }],
      // A header sent twice, as Headers#get reads it.
      ['?pseudo=Steve', { 'X-Api-Key': `${key}, ${key}` }], ['?pseudo=Steve', { Authorization: `Bearer ${key}, Bearer ${key}` }],
    ]
    for (const [query, headers] of usual) {
      const a = await s.ask(query, headers)
      expect({ query, answered: a.answered }).toEqual({ query, answered: true })
      expectSame(a)
    }
  })

  test('hands every other request to the framework\'s route, which counts it once', async () => {
    const s = await setup(backend)
    const other: [string, Record<string, string>?][] = [
      ['?pseudo=Steve', {}], ['?pseudo=Steve', { 'X-Api-Key': 'vlk_unknown' }], ['?pseudo=Steve', { 'X-Api-Key': s.key, Authorization: 'Bearer other' }],
      [''], ['?pseudo='], ['?pseudo=ab'], ['?pseudo=Steve&window=0'], ['?pseudo=Steve&window=30&duration=60'], ['?ip=nowhere'],
      ['?pseudo=Steve&format=xml'], ['?pseudo=Steve&pseudo=Alex'], ['?pseudo=Steve&colour=blue'], ['?pseudo=%53teve'], ['?pseudo=Ste+ve'],
    ]
    for (const [query, headers] of other) {
      const a = await s.ask(query, headers)
      expect({ query, answered: a.answered }).toEqual({ query, answered: false })
      // Handed over: the framework's route answered both, counting each once.
      const remaining = a.own.headers['ratelimit-remaining']
      if (remaining !== undefined) expect(Number(a.framework.headers['ratelimit-remaining'])).toBe(Number(remaining) - 1)
      expect(a.own.status).toBe(a.framework.status)
      expect(a.own.body).toBe(a.framework.body)
    }
  })

  test('past the key\'s limit it refuses as the framework does: 429 with Retry-After and the limit headers', async () => {
    const s = await setup(backend, 3)
    const first = await s.ask('?pseudo=Steve') // 1 by the route, 2 by the framework
    expect(first.own.status).toBe(200)
    const second = await s.ask('?pseudo=Steve') // 3, then refused
    expect(second.own.status).toBe(200)
    expect(second.framework.status).toBe(429)
    const refused = await s.ask('?pseudo=Steve&format=text')
    expect(refused.answered).toBe(true)
    expect(refused.own.status).toBe(429)
    expect(refused.own.headers['retry-after']).toBeDefined()
    expectSame(refused)
  })

  test('any query, header or not: the same answer as the framework\'s route', async () => {
    const s = await setup(backend)
    const part = fc.constantFrom('pseudo=Steve', 'pseudo=alex', 'pseudo=Nobody', 'pseudo=', 'pseudo=x', 'ip=203.0.113.7', 'ip=::1', 'ip=bad',
      'window=5', 'window=1441', 'duration=5', 'format=text', 'format=json', 'format=', `key=${s.key}`, 'key=wrong', 'other=1', '', 'pseudo=%41lex')
    await fc.assert(fc.asyncProperty(fc.array(part, { maxLength: 4 }), fc.boolean(), async (parts, header) => {
      const a = await s.ask(parts.length ? `?${parts.join('&')}` : '', header ? { 'X-Api-Key': s.key } : {})
      expectSame(a)
    }), { numRuns: 150 })
  })

  test('odd values, numbers, encodings and repeats: the same answer as the framework\'s route', async () => {
    const s = await setup(backend)
    const name = fc.constantFrom('pseudo', 'ip', 'window', 'duration', 'format', 'key', 'Pseudo', 'p%73eudo', 'other', '')
    const odd = fc.constantFrom('Steve', 'steve', 'Alex', 'St%65ve', '%53teve', 'Ste+ve', '%FF', '%E2%82', '%', '%00', 'Steve%00', 'x'.repeat(65),
      '1e3', '0x10', ' 5', '%205', '+5', '-0', '5.0', '0005', '05', '1440', '1441', '0', '000000120', '1234567890', '',
      '203.0.113.7', '::ffff:203.0.113.7', '%3A%3Affff%3A203.0.113.7', '[2001:db8::1]', '2001:db8::1%25eth0', '2001:DB8::ffff',
      'text', 'TEXT', 'json', 'te%78t', s.key, `${s.key}%20`, 'vlk_unknown')
    const part = fc.oneof(fc.tuple(name, odd).map(([n, v]) => `${n}=${v}`), name, fc.string({ maxLength: 8 }))
    await fc.assert(fc.asyncProperty(fc.array(part, { maxLength: 5 }), fc.constantFrom<Record<string, string>>({ 'X-Api-Key': s.key }, {}, { Authorization: `Bearer ${s.key}` }, { 'X-Api-Key': `${s.key}, ${s.key}` }), async (parts, headers) => {
      const a = await s.ask(parts.length ? `?${parts.join('&')}` : '', headers)
      expectSame(a)
    }), { numRuns: 300 })
  })

  test('the site serves it over HTTP, and other methods on its path still reach the framework', async () => {
    const s = await setup(backend)
    const app = s.app.listen({ hostname: '127.0.0.1', port: 0 })
    try {
      const base = `http://127.0.0.1:${app.server!.port}/api/v1/votes/check`
      const r = await fetch(`${base}?pseudo=Steve`, { headers: { 'X-Api-Key': s.key } })
      expect(r.status).toBe(200)
      expect(r.headers.get('x-content-type-options')).toBe('nosniff')
      expect(r.headers.get('ratelimit-limit')).toBe('1000000')
      expect(await r.json()).toMatchObject({ ok: true, hasVoted: true, pseudo: 'Steve', claimed: false, window: 120 })
      const post = await fetch(`${base}?pseudo=Steve`, { method: 'POST', headers: { 'X-Api-Key': s.key } })
      // The framework's answer: the path takes GET (and HEAD), not POST.
      expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD'])
      expect((await post.json()).error.code).toBe('METHOD_NOT_ALLOWED')
      const head = await fetch(`${base}?pseudo=Steve`, { method: 'HEAD', headers: { 'X-Api-Key': s.key } })
      expect(head.status).toBe(200)
    } finally {
      await app.stop()
    }
  })
})
