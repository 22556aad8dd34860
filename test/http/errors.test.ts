import { afterAll, describe, expect, test } from 'bun:test'
import { Elysia, t } from 'elysia'
import { ApiError, conflict, invalidParameter } from '../../src/http/errors.ts'
import { errorHandler } from '../../src/http/error-handler.ts'
import { checkInteger, queryInteger, toInteger } from '../../src/http/schema.ts'
import { fieldOfPath } from '../../src/http/validation.ts'
import { loggableUrl, memoryLogger } from '../../src/log.ts'
import { VERSION } from '../../src/version.ts'
import { call, cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'
import { ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

const log = memoryLogger()
const app = new Elysia()
  .use(errorHandler(log))
  // Integer parameters as the app writes them: digits in the schema, the range in the handler.
  .get('/q', ({ query }) => ({ ok: true, window: checkInteger(toInteger(query.window), 'window', 1, 1440) }), {
    query: t.Object({ window: t.Optional(queryInteger('window', 1, 1440, 'minutes')), name: t.Optional(t.String({ maxLength: 3 })) }),
  })
  .post('/b', ({ body }) => body, { body: t.Object({ port: t.Integer(), tags: t.Optional(t.Array(t.String({ maxLength: 3 }))) }) })
  .get('/p/:id', ({ params }) => params, { params: t.Object({ id: t.String({ pattern: '^[0-9]+$' }) }) })
  .get('/h', () => ({ ok: true }), { headers: t.Object({ 'x-token': t.String({ minLength: 4 }) }) })
  .get('/taken', () => { throw conflict('the slug "x" is taken', 'slug') })
  .get('/general', () => { throw invalidParameter('give either token or newToken, not both') })
  .get('/limited', () => { throw new ApiError(429, 'RATE_LIMITED', 'slow down', {}, { 'Retry-After': '7' }) })
  .get('/boom', () => { throw new Error('database password is hunter2') })

const json = async (r: Response) => ({ status: r.status, body: await r.json() })

describe('error bodies', () => {
  test('a validation failure is 400 INVALID_PARAMETER with the schema\'s message', async () => {
    for (const w of ['0', '1441', '1.5', 'abc']) {
      expect(await json(await call(app, 'GET', `/q?window=${w}`))).toEqual({
        status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'window must be an integer from 1 to 1440', field: 'window' } },
      })
    }
    expect((await json(await call(app, 'GET', '/q?window=1440'))).body).toEqual({ ok: true, window: 1440 })
  })

  test('without a custom message, the failing parameter is named', async () => {
    const r = await json(await call(app, 'GET', '/q?name=toolong'))
    expect(r.status).toBe(400)
    expect(r.body.error.message).toStartWith('name: ')
    const b = await json(await call(app, 'POST', '/b', { body: { port: 'x' } }))
    expect(b.status).toBe(400)
    expect(b.body.error.message).toStartWith('port: ')
  })

  test('error.field names the one body field, query or path parameter at fault', async () => {
    const field = async (method: string, path: string, body?: unknown) => (await json(await call(app, method, path, body === undefined ? {} : { body }))).body.error.field
    expect(await field('GET', '/q?name=toolong')).toBe('name')
    expect(await field('POST', '/b', { port: 'x' })).toBe('port')
    expect(await field('POST', '/b', {})).toBe('port')
    // A bad item of a list is its list's fault: a form has one control for the list.
    expect(await field('POST', '/b', { port: 1, tags: ['ok', 'too long'] })).toBe('tags')
    expect(await field('GET', '/p/abc')).toBe('id')
    expect(await field('GET', '/taken')).toBe('slug')
    // Not a field: a header, a message about two fields at once.
    expect(await json(await call(app, 'GET', '/h', { headers: { 'x-token': 'no' } }))).toEqual({
      status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: expect.stringMatching(/^x-token: /) } },
    })
    expect(await json(await call(app, 'GET', '/general'))).toEqual({
      status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'give either token or newToken, not both' } },
    })
  })

  test('the field of a value error is the first step of its path', () => {
    expect(['', '/port', '/modes/2', '/a~1b~0c'].map(fieldOfPath)).toEqual([undefined, 'port', 'modes', 'a/b~c'])
  })

  test('an unparseable body is 400', async () => {
    const r = await json(await call(app, 'POST', '/b', { body: '{oops', headers: { 'content-type': 'application/json' } }))
    expect(r).toEqual({ status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'the request body could not be parsed' } } })
  })

  test('unknown paths are 404 NOT_FOUND', async () => {
    expect(await json(await call(app, 'GET', '/nowhere'))).toEqual({ status: 404, body: { ok: false, error: { code: 'NOT_FOUND', message: 'no such path' } } })
  })

  test('ApiError keeps its status and headers', async () => {
    const r = await call(app, 'GET', '/limited')
    expect(r.status).toBe(429)
    expect(r.headers.get('retry-after')).toBe('7')
    expect(await r.json()).toEqual({ ok: false, error: { code: 'RATE_LIMITED', message: 'slow down' } })
  })

  test('anything unexpected is 500 INTERNAL, logged, with no detail in the body', async () => {
    const r = await call(app, 'GET', '/boom')
    const text = await r.text()
    expect(r.status).toBe(500)
    expect(JSON.parse(text)).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'internal error' } })
    expect(text).not.toContain('hunter2')
    expect(log.lines.some((l) => l.includes('hunter2') && l.includes('ERROR'))).toBe(true)
  })

  test('with format=text an error is the same status and one line of text', async () => {
    const r = await call(app, 'GET', '/q?window=0&format=text')
    expect(r.status).toBe(400)
    expect(r.headers.get('content-type')).toStartWith('text/plain')
    expect(await r.text()).toBe('INVALID_PARAMETER: window must be an integer from 1 to 1440\n')
  })

  test('embedded assets are served under /assets, nothing outside it', async () => {
    const app = await testApp(testRuntime())
    const r = await call(app, 'GET', '/assets/favicon.svg')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toStartWith('image/svg+xml')
    expect(await r.text()).toStartWith('<svg')
    expect((await call(app, 'GET', '/assets/%2e%2e/%2e%2e/package.json')).status).toBe(404)
  })

  test('an unknown page asked for by a browser is the HTML 404 page; API paths and other clients keep JSON', async () => {
    const app = await testApp(testRuntime())
    const page = await call(app, 'GET', '/serveur/', { headers: { accept: 'text/html,application/xhtml+xml' } })
    expect(page.status).toBe(404)
    expect(page.headers.get('content-type')).toStartWith('text/html')
    expect(await page.text()).toContain('Page not found')
    const api = await call(app, 'GET', '/api/v1/nothing', { headers: { accept: 'text/html' } })
    expect([api.status, (await api.json()).error.code]).toEqual([404, 'NOT_FOUND'])
    const curl = await call(app, 'GET', '/nothing', { headers: { accept: '*/*' } })
    expect(curl.headers.get('content-type')).toStartWith('application/json')
  })

  test('a path segment that is not percent-encoded UTF-8 names nothing: 404 NOT_FOUND, not 400 "expected string"', async () => {
    const site = await testApp(testRuntime())
    for (const path of ['/api/v1/servers/%FF', '/api/v1/servers/%E2%82/history', '/api/v1/servers/%/badge.svg', '/api/v1/servers/%C0%AF/icon.png']) {
      expect({ path, ...(await json(await call(site, 'GET', path))) }).toEqual({
        path, status: 404, body: { ok: false, error: { code: 'NOT_FOUND', message: 'slug is not percent-encoded UTF-8: nothing has it', field: 'slug' } },
      })
    }
    const page = await call(site, 'GET', '/serveur/%FF', { headers: { accept: 'text/html' } })
    expect([page.status, page.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8'])
    // A segment that decodes but breaks its parameter's rule stays a 400 naming it.
    expect((await json(await call(app, 'GET', '/p/%FF'))).status).toBe(404)
    expect((await json(await call(app, 'GET', '/p/abc'))).status).toBe(400)
  })

  test('a method an API path does not take is 405 METHOD_NOT_ALLOWED naming the ones it takes (Allow), not "no such path"', async () => {
    const rt = testRuntime()
    const { server, key } = await seedServer(rt)
    const site = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
    try {
      const send = async (method: string, path: string) => {
        const r = await fetch(`http://127.0.0.1:${site.server!.port}${path}`, { method, headers: { 'x-api-key': key } })
        return { status: r.status, allow: r.headers.get('allow'), body: r.headers.get('content-type')?.startsWith('application/json') ? await r.json() : await r.text() }
      }
      const refused = (method: string, path: string, allow: string) => ({
        status: 405, allow, body: { ok: false, error: { code: 'METHOD_NOT_ALLOWED', message: `${path} takes ${allow.replace(/, /g, ' or ')}, not ${method}` } },
      })
      expect(await send('GET', '/api/v1/votes/claim?pseudo=Steve')).toEqual(refused('GET', '/api/v1/votes/claim', 'POST'))
      // The check and the health answers are the HTTP server's own routes, in front of the app.
      expect(await send('POST', '/api/v1/votes/check?pseudo=Steve')).toEqual(refused('POST', '/api/v1/votes/check', 'GET, HEAD'))
      expect(await send('DELETE', '/api/v1/health')).toEqual(refused('DELETE', '/api/v1/health', 'GET, HEAD'))
      expect(await send('PUT', `/api/v1/me/servers/${server.slug}`)).toEqual(refused('PUT', `/api/v1/me/servers/${server.slug}`, 'GET, HEAD, PATCH, DELETE'))
      expect(await send('GET', '/api/v1/votes/claim?pseudo=Steve&format=text')).toEqual({
        status: 405, allow: 'POST', body: 'METHOD_NOT_ALLOWED: /api/v1/votes/claim takes POST, not GET\n',
      })
      // A path no method has is still unknown.
      expect(await send('POST', '/api/v1/nothing')).toEqual({ status: 404, allow: null, body: { ok: false, error: { code: 'NOT_FOUND', message: 'no such path' } } })
    } finally {
      await site.stop()
    }
  })

  test('a field of the wrong type is named with its rule, in a body that may also be null (the test vote) and in the vote form', async () => {
    const rt = testRuntime({ network: { allow_private_targets: true } })
    const { server } = await seedServer(rt)
    const app = await testApp(rt)
    const { headers } = await ownerSession(rt, 'admin@example.com')
    const slug = (await json(await call(app, 'POST', '/api/v1/me/servers', { headers, body: { name: 'Alpha', host: '127.0.0.1' } }))).body.server.slug
    expect(await json(await call(app, 'POST', `/api/v1/me/servers/${slug}/test`, { headers, body: { pseudo: 5 } }))).toEqual({
      status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'pseudo must be a player name of at most 64 characters', field: 'pseudo' } },
    })
    for (const [field, message] of [['pseudo', 'pseudo must be a player name, sent as text'], ['altcha', 'altcha must be the captcha widget\'s answer (text)']]) {
      const body = { pseudo: 'Steve', [field]: 5 }
      expect({ field, ...(await json(await call(app, 'POST', `/serveur/${server.slug}/voter`, { headers: { accept: 'application/json' }, body }))) }).toEqual({
        field, status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message, field } },
      })
    }
  })

  test('a query parameter of the owner and admin APIs given twice with different values is 400 naming it, as on the public and keyed APIs', async () => {
    const rt = testRuntime()
    const app = await testApp(rt)
    const { headers } = await ownerSession(rt, 'admin@example.com', true)
    const slug = (await (await call(app, 'POST', '/api/v1/me/servers', { headers, body: { name: 'Alpha', host: 'play.example.com' } })).json()).server.slug
    for (const [path, name] of [[`/api/v1/me/servers/${slug}/deliveries?status=failed&status=succeeded`, 'status'], ['/api/v1/admin/audit?limit=5&limit=6', 'limit']]) {
      expect({ path, ...(await json(await call(app, 'GET', path, { headers }))) }).toEqual({
        path, status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: `${name} is given several times with different values; give it once`, field: name } },
      })
    }
    // The same value twice is that value.
    expect((await call(app, 'GET', `/api/v1/me/servers/${slug}/deliveries?status=failed&status=failed`, { headers })).status).toBe(200)
  })

  test('GET /api/v1/health answers ok and the version', async () => {
    const rt = testRuntime()
    expect(await json(await call(await testApp(rt), 'GET', '/api/v1/health'))).toEqual({ status: 200, body: { ok: true, version: VERSION } })
  })
})

test('a logged address keeps its parameters but not the values of those that carry a secret (an API key, a reset token)', () => {
  expect(loggableUrl('http://list.example/api/v1/votes/check?pseudo=Steve&key=vlk_abc&window=60')).toBe('http://list.example/api/v1/votes/check?pseudo=Steve&key=[hidden]&window=60')
  expect(loggableUrl('http://list.example/dashboard/reset?TOKEN=abc#top')).toBe('http://list.example/dashboard/reset?TOKEN=[hidden]#top')
  expect(loggableUrl('http://list.example/?monkey=1&tokens=2')).toBe('http://list.example/?monkey=1&tokens=2')
})
