import { afterAll, describe, expect, test } from 'bun:test'
import { call, cleanupTemp, testApp, testRuntime } from '../helpers.ts'
import { json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

// Keys that are also members of Object.prototype. JSON.parse makes each an own key of the body
// (even "__proto__"), so the bodies are written as raw JSON text.
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']

describe('a JSON body key named like an Object.prototype member', () => {
  test('is refused with a 400 naming it on every route that refuses unknown fields', async () => {
    const rt = testRuntime({ network: { allow_private_targets: true }, accounts: { login_attempts_per_minute: 1000 } })
    const app = await testApp(rt)
    const { user, headers } = await ownerSession(rt, 'owner@example.com')
    expect((await call(app, 'POST', '/api/v1/me/servers', { headers, body: { name: 'Alpha', host: '127.0.0.1', slug: 'alpha' } })).status).toBe(201)
    const routes: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/api/v1/me/servers', { name: 'Beta', host: '127.0.0.1' }, 'name, host, port, edition, slug, modes, version, description, website'],
      ['PATCH', '/api/v1/me/servers/alpha', { name: 'Alpha Two' }, 'name, host, port, edition, modes, version, description, website, hidden'],
      ['POST', '/api/v1/me/servers/alpha/keys', { name: 'plugin' }, 'name'],
      ['PUT', '/api/v1/me/servers/alpha/webhook', { url: 'http://127.0.0.1:9/hook' }, 'url'],
      ['PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v2' }, 'host, port, protocol, publicKey, token, newToken'],
      ['POST', '/api/v1/auth/register', { email: 'new@example.com', password: 'correct horse battery' }, 'email, password'],
      ['POST', '/api/v1/auth/login', { email: 'owner@example.com', password: 'correct horse battery' }, 'email, password'],
    ]
    for (const [method, path, valid, known] of routes) {
      for (const key of INHERITED) {
        for (const value of ['{"x":1}', '1', 'null', '"text"']) {
          const sent = `{${JSON.stringify(key)}:${value},${JSON.stringify(valid).slice(1)}`
          expect({ method, path, sent, ...(await json(await call(app, method, path, { headers, body: sent }))) }).toEqual({
            method, path, sent, status: 400,
            body: { ok: false, error: { code: 'INVALID_PARAMETER', message: `${key} is not a field of this request (known: ${known})`, field: key } },
          })
        }
      }
    }
    // Nothing was changed by any of them.
    const alpha = await json(await call(app, 'GET', '/api/v1/me/servers/alpha', { headers }))
    expect(alpha.body.server).toMatchObject({ name: 'Alpha', webhook: null, votifier: null })
    expect(rt.store.users.byEmail('new@example.com')).toBeNull()
    expect(rt.store.servers.byOwner(user.id)).toHaveLength(1)
  })

  test('a route\'s own message for a field is still used (PATCH slug)', async () => {
    const rt = testRuntime()
    const app = await testApp(rt)
    const { headers } = await ownerSession(rt, 'owner@example.com')
    await call(app, 'POST', '/api/v1/me/servers', { headers, body: { name: 'Alpha', host: '8.8.8.8', slug: 'alpha' } })
    expect(await json(await call(app, 'PATCH', '/api/v1/me/servers/alpha', { headers, body: '{"slug":"beta","constructor":1}' }))).toEqual({
      status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'slug cannot be changed: it stays what it was when the server was created', field: 'slug' } },
    })
  })
})

describe('a body that is not a JSON object', () => {
  test('is refused with a 400 saying so on every route that takes an object body, and changes nothing', async () => {
    const rt = testRuntime({ network: { allow_private_targets: true }, accounts: { login_attempts_per_minute: 1000 } })
    const app = await testApp(rt)
    const { user, headers } = await ownerSession(rt, 'owner@example.com')
    expect((await call(app, 'POST', '/api/v1/me/servers', { headers, body: { name: 'Alpha', host: '127.0.0.1', slug: 'alpha' } })).status).toBe(201)
    const routes: [string, string, Record<string, unknown>][] = [
      ['POST', '/api/v1/me/servers', { name: 'Beta', host: '127.0.0.1' }],
      ['PATCH', '/api/v1/me/servers/alpha', { name: 'Alpha Two' }],
      ['POST', '/api/v1/me/servers/alpha/keys', { name: 'plugin' }],
      ['PUT', '/api/v1/me/servers/alpha/webhook', { url: 'http://127.0.0.1:9/hook' }],
      ['PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v2' }],
      ['POST', '/api/v1/auth/register', { email: 'new@example.com', password: 'correct horse battery' }],
      ['POST', '/api/v1/auth/login', { email: 'owner@example.com', password: 'correct horse battery' }],
    ]
    const refused = { ok: false, error: { code: 'INVALID_PARAMETER', message: 'the request body must be a JSON object, sent with Content-Type: application/json' } }
    for (const [method, path, valid] of routes) {
      const sent: [string, string][] = [
        ...['[]', `[${JSON.stringify(valid)}]`, 'null', '"text"', '1', 'true'].map((body): [string, string] => [body, 'application/json']),
        // Valid JSON under another type is read as text: said so, rather than "name is required".
        [JSON.stringify(valid), 'text/plain'],
      ]
      for (const [text, type] of sent) {
        expect({ method, path, text, type, ...(await json(await call(app, method, path, { headers: { ...headers, 'content-type': type }, body: text }))) }).toEqual({
          method, path, text, type, status: 400, body: refused,
        })
      }
    }
    const alpha = await json(await call(app, 'GET', '/api/v1/me/servers/alpha', { headers }))
    expect(alpha.body.server).toMatchObject({ name: 'Alpha', webhook: null, votifier: null })
    expect(rt.store.users.byEmail('new@example.com')).toBeNull()
    expect(rt.store.servers.byOwner(user.id)).toHaveLength(1)
    expect((await json(await call(app, 'GET', '/api/v1/me/servers/alpha/keys', { headers }))).body.keys).toEqual([])
    // No body at all is still no body: a key without a name.
    expect((await call(app, 'POST', '/api/v1/me/servers/alpha/keys', { headers })).status).toBe(201)
  })
})

describe('a body the route cannot read', () => {
  test('a JSON object under a type other than JSON or a form is refused, not taken for no change (or for a form)', async () => {
    const rt = testRuntime({ network: { allow_private_targets: true } })
    const app = await testApp(rt)
    const { headers } = await ownerSession(rt, 'owner@example.com')
    expect((await call(app, 'POST', '/api/v1/me/servers', { headers, body: { name: 'Alpha', host: '127.0.0.1', slug: 'alpha' } })).status).toBe(201)
    const refused = { status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'the request body must be a JSON object, sent with Content-Type: application/json' } } }
    for (const type of ['application/octet-stream', 'application/xml', 'application/vnd.api+json', 'image/png']) {
      for (const [method, path] of [['PATCH', '/api/v1/me/servers/alpha'], ['POST', '/api/v1/me/servers/alpha/keys'], ['POST', '/api/v1/me/servers/alpha/test']]) {
        const r = await call(app, method, path, { headers: { ...headers, 'content-type': type }, body: '{"description":"changed","name":"changed","pseudo":"Changed"}' })
        expect({ type, method, path, ...(await json(r)) }).toEqual({ type, method, path, ...refused })
      }
    }
    const alpha = await json(await call(app, 'GET', '/api/v1/me/servers/alpha', { headers }))
    expect(alpha.body.server).toMatchObject({ description: '', updatedAt: alpha.body.server.createdAt })
    expect((await json(await call(app, 'GET', '/api/v1/me/servers/alpha/keys', { headers }))).body.keys).toEqual([])
  })

  test('malformed JSON where the body is optional (a key, a test vote) is refused rather than read as no body', async () => {
    const rt = testRuntime({ network: { allow_private_targets: true } })
    const app = await testApp(rt)
    const { headers } = await ownerSession(rt, 'owner@example.com')
    expect((await call(app, 'POST', '/api/v1/me/servers', { headers, body: { name: 'Alpha', host: '127.0.0.1', slug: 'alpha' } })).status).toBe(201)
    for (const path of ['/api/v1/me/servers/alpha/keys', '/api/v1/me/servers/alpha/test']) {
      expect({ path, ...(await json(await call(app, 'POST', path, { headers, body: '{"name":"plugin"' }))) }).toEqual({
        path, status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'the request body could not be parsed' } },
      })
    }
    // A misspelt field of the test vote is named, not ignored for the default pseudo.
    expect(await json(await call(app, 'POST', '/api/v1/me/servers/alpha/test', { headers, body: { psuedo: 'Steve' } }))).toEqual({
      status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'psuedo is not a field of this request (known: pseudo)', field: 'psuedo' } },
    })
    expect((await json(await call(app, 'GET', '/api/v1/me/servers/alpha/keys', { headers }))).body.keys).toEqual([])
    // No body, an empty object and null still mean "the defaults" (409: no channel to test here).
    for (const body of [undefined, {}, 'null']) expect((await call(app, 'POST', '/api/v1/me/servers/alpha/test', { headers, body })).status).toBe(409)
  })
})

test('no body where an object is required is refused saying what to send, not "body: expected object"', async () => {
  const rt = testRuntime({ network: { allow_private_targets: true } })
  const app = await testApp(rt)
  const { user, headers } = await ownerSession(rt, 'owner@example.com', true)
  expect((await call(app, 'POST', '/api/v1/me/servers', { headers, body: { name: 'Alpha', host: '127.0.0.1', slug: 'alpha' } })).status).toBe(201)
  const refused = { status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'the request body must be a JSON object, sent with Content-Type: application/json' } } }
  for (const [method, path] of [['PUT', '/api/v1/me/servers/alpha/webhook'], ['PUT', '/api/v1/me/servers/alpha/discord'], ['POST', '/api/v1/auth/login'], ['POST', '/api/v1/auth/reset'], ['PATCH', `/api/v1/admin/users/${user.id}`]]) {
    expect({ method, path, ...(await json(await call(app, method, path, { headers }))) }).toEqual({ method, path, ...refused })
  }
})
