import { afterAll, describe, expect, test } from 'bun:test'
import { Elysia, t } from 'elysia'
import { bodyLimitOption, outerBodyLimit, routeBodyLimits } from '../../src/http/body-limit.ts'
import { cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

const BROWSER_FORM = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'content-type': 'application/x-www-form-urlencoded' }
const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' }
const tooLarge = (limit: number) => ({
  ok: false, error: { code: 'PAYLOAD_TOO_LARGE', message: `the request body is larger than ${limit} bytes, the most this endpoint accepts` },
})

// A body sent with its Content-Length (as browsers and curl do), or as a stream without one
// (chunked), in chunks of at most 16 KiB.
function post(app: { handle(r: Request): Promise<Response> }, path: string, body: string, headers: Record<string, string>, framing: 'length' | 'chunked') {
  const bytes = new TextEncoder().encode(body)
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers: { ...headers } }
  if (framing === 'length') {
    init.body = bytes
    ;(init.headers as Record<string, string>)['content-length'] = String(bytes.length)
  } else {
    let at = 0
    init.body = new ReadableStream({
      pull(c) {
        if (at >= bytes.length) return c.close()
        c.enqueue(bytes.slice(at, at + 16_384))
        at += 16_384
      },
    })
    init.duplex = 'half'
  }
  return app.handle(new Request(`http://localhost${path}`, init))
}

async function site(input = {}) {
  const rt = testRuntime(input)
  const app = await testApp(rt)
  const { server } = await seedServer(rt)
  return { rt, app, server }
}

const loginBody = (size: number) => JSON.stringify({ email: 'owner@example.com', password: 'x'.repeat(Math.max(8, size - 50)) })

for (const framing of ['length', 'chunked'] as const) {
  describe(`bodies sent with ${framing === 'length' ? 'Content-Length' : 'no Content-Length (chunked)'}`, () => {
    test('the login over http.max_body_bytes (64 KiB) gets 413 in the contract shape', async () => {
      const { app } = await site()
      const r = await post(app, '/api/v1/auth/login', loginBody(70_000), JSON_HEADERS, framing)
      expect({ status: r.status, type: r.headers.get('content-type'), body: await r.json() })
        .toEqual({ status: 413, type: 'application/json', body: tooLarge(65536) })
    })

    test('a body within the limit is parsed as before', async () => {
      const { app } = await site()
      const login = await post(app, '/api/v1/auth/login', JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery' }), JSON_HEADERS, framing)
      expect(login.status).toBe(200)
      const long = await post(app, '/api/v1/auth/login', loginBody(60_000), JSON_HEADERS, framing)
      expect(long.status).toBe(400) // the password is over 256 characters: read, parsed, refused by its own rule
      expect((await long.json()).error.message).toContain('password')
    })

    test('the vote form: an HTML page for a browser, JSON for an API client; a vote within the limit counts', async () => {
      const { rt, app, server } = await site()
      const path = `/serveur/${server.slug}/voter`
      const page = await post(app, path, `pseudo=Steve&filler=${'x'.repeat(70_000)}`, BROWSER_FORM, framing)
      expect(page.status).toBe(413)
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(await page.text()).toContain('<h1>Too much data</h1>')
      const api = await post(app, path, `pseudo=Steve&filler=${'x'.repeat(70_000)}`, { ...BROWSER_FORM, accept: 'application/json' }, framing)
      expect({ status: api.status, body: await api.json() }).toEqual({ status: 413, body: tooLarge(65536) })
      expect(rt.db.query('SELECT count(*) AS n FROM vote').get()).toEqual({ n: 0 })

      const vote = await post(app, path, `pseudo=Steve&filler=${'x'.repeat(60_000)}`, BROWSER_FORM, framing)
      expect(vote.status).toBe(303)
      expect(rt.db.query('SELECT pseudo FROM vote').all()).toEqual([{ pseudo: 'Steve' }])
    })

    test('http.max_body_bytes sets the limit', async () => {
      const { app } = await site({ http: { max_body_bytes: 4096 } })
      const r = await post(app, '/api/v1/auth/login', loginBody(5000), JSON_HEADERS, framing)
      expect({ status: r.status, body: await r.json() }).toEqual({ status: 413, body: tooLarge(4096) })
    })

    test('a route can set its own limit (an upload), the others keep the default', async () => {
      const { app } = await site()
      const upload = new Elysia({ name: 'test.upload' }).use(bodyLimitOption)
        .post('/test/upload/:name', ({ body }) => ({ size: body.length }), { body: t.String(), maxBodyBytes: 200_000 })
        .post('/test/plain/:id', ({ body }) => ({ size: body.length }), { body: t.String() })
      app.use(upload)
      const text = { 'content-type': 'text/plain' }
      const ok = await post(app, '/test/upload/banner.png', 'x'.repeat(150_000), text, framing)
      expect({ status: ok.status, body: await ok.json() }).toEqual({ status: 200, body: { size: 150_000 } })
      const over = await post(app, '/test/upload/banner.png', 'x'.repeat(200_001), text, framing)
      expect({ status: over.status, body: await over.json() }).toEqual({ status: 413, body: tooLarge(200_000) })
      const plain = await post(app, '/test/plain/1', 'x'.repeat(70_000), text, framing)
      expect({ status: plain.status, body: await plain.json() }).toEqual({ status: 413, body: tooLarge(65536) })
    })
  })
}

test('over a real socket, a chunked vote within the limit still records the client\'s address', async () => {
  const { rt, app, server } = await site()
  app.listen({ hostname: '127.0.0.1', port: 0 })
  try {
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('pseudo=Steve'))
        c.close()
      },
    })
    const r = await fetch(`http://127.0.0.1:${app.server!.port}/serveur/${server.slug}/voter`, {
      method: 'POST', body, duplex: 'half', headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    } as RequestInit)
    expect(r.status).toBe(201)
    expect(rt.db.query('SELECT ip_key AS k FROM vote_address').all()).toEqual([{ k: '4:127.0.0.1' }])
  } finally {
    await app.stop()
  }
})

test('a Content-Length over the limit is refused without reading the body', async () => {
  const { app } = await site()
  let pulled = 0
  const body = new ReadableStream({
    pull(c) {
      pulled++
      c.enqueue(new Uint8Array(65_536))
    },
  })
  const r = await app.handle(new Request('http://localhost/api/v1/auth/login', {
    method: 'POST', headers: { ...JSON_HEADERS, 'content-length': String(100 * 1024 * 1024) }, body, duplex: 'half',
  } as RequestInit))
  expect(r.status).toBe(413)
  // The stream may have been asked for its first chunk when the request was built; never more.
  expect(pulled).toBeLessThanOrEqual(1)
})

test('the API reference states a route\'s own limit', async () => {
  const { app } = await site()
  app.use(new Elysia({ name: 'test.banner' }).use(bodyLimitOption).put('/api/v1/test/banner', () => 'ok', { body: t.String(), maxBodyBytes: 1024 * 1024 }))
  const doc = await (await app.handle(new Request('http://localhost/api/docs/json'))).json()
  expect(doc.paths['/api/v1/test/banner'].put['x-max-body-bytes']).toBe(1024 * 1024)
})

test('Bun\'s own limit stays an outer bound above every route\'s limit', async () => {
  const { app } = await site()
  // The site's own upload (the banner) stays under Bun's default bound.
  expect([...routeBodyLimits(app.routes)]).toEqual([['PUT /api/v1/me/servers/:slug/banner', 4 * 1024 * 1024]])
  expect(outerBodyLimit([65536, ...routeBodyLimits(app.routes).values()])).toBe(128 * 1024 * 1024)
  app.use(new Elysia({ name: 'test.big' }).use(bodyLimitOption).put('/test/big', () => 'ok', { maxBodyBytes: 300 * 1024 * 1024 }))
  expect([...routeBodyLimits(app.routes)]).toEqual([['PUT /api/v1/me/servers/:slug/banner', 4 * 1024 * 1024], ['PUT /test/big', 300 * 1024 * 1024]])
  expect(outerBodyLimit([65536])).toBe(128 * 1024 * 1024)
  expect(outerBodyLimit([65536, ...routeBodyLimits(app.routes).values()])).toBe(300 * 1024 * 1024)
})
