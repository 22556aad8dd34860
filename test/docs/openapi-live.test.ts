import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createUser } from '../../src/accounts/service.ts'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import { createKey } from '../../src/keys/service.ts'
import { png } from '../media/images.ts'
import { cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'
import { schemaErrors, type JsonSchema } from './json-schema.ts'

// The API reference (/api/docs/json) walked against the real site listening on 127.0.0.1: every
// operation it lists is a route with that method, every API route is listed, and a good request
// to each operation gets an answer the document describes (its status, content type and schema).

interface Operation {
  parameters?: { name: string; in: string; required?: boolean }[]
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
  responses?: Record<string, { content?: Record<string, { schema: JsonSchema }> }>
}
type Document = { paths: Record<string, Record<string, Operation>> }

let site: Awaited<ReturnType<typeof start>>
beforeAll(async () => { site = await start() })
afterAll(async () => {
  await site?.stop()
  cleanupTemp()
})

// An administrator owning one server with an API key and a vote, a webhook to a receiver on
// 127.0.0.1 (for the test vote), a second key and a second account to delete.
async function start() {
  const rt = testRuntime({ network: { allow_private_targets: true }, votes: { interval_minutes: 1 }, accounts: { login_attempts_per_minute: 1000 } })
  const admin = await createUser(rt, { email: 'owner@example.com', password: 'correct horse battery', admin: true })
  const { server, key } = await seedServer(rt)
  const spare = await createKey(rt, server.id, 'spare')
  const other = await createUser(rt, { email: 'other@example.com', password: 'correct horse battery' })
  const { token } = await startSession(rt, admin.id)
  const receiver = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('ok') })
  const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
  const url = `http://127.0.0.1:${app.server!.port}`
  const headers = { cookie: `${sessionCookieName(rt.siteUrl)}=${token}`, 'x-api-key': key }
  const send = (method: string, path: string, body?: unknown, type = 'application/json') =>
    fetch(url + path, { method, headers: body === undefined ? headers : { ...headers, 'content-type': type }, body: body === undefined ? undefined : body instanceof Uint8Array ? new Blob([body as Uint8Array<ArrayBuffer>]) : JSON.stringify(body), redirect: 'manual' })
  expect((await send('POST', `/serveur/${server.slug}/voter`, { pseudo: 'Steve' })).status).toBe(201)
  expect((await send('PUT', `/api/v1/me/servers/${server.slug}/banner`, png(468, 60), 'image/png')).status).toBe(200)
  expect((await send('PUT', `/api/v1/me/servers/${server.slug}/webhook`, { url: `http://127.0.0.1:${receiver.port}/hook` })).status).toBe(200)
  const doc = await (await fetch(`${url}/api/docs/json`)).json() as Document
  return {
    app, doc, send, url, headers, clock: rt.clock, slug: server.slug, spareKey: spare.id, adminId: admin.id, otherId: other.id,
    stop: async () => { await app.stop(); receiver.stop(true) },
  }
}

const operations = () => Object.entries(site.doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })))

describe('the OpenAPI document and the routes of the live site', () => {
  test('every documented operation is a route with that method: none answers "no such path"', async () => {
    const unrouted: string[] = []
    for (const { method, path } of operations()) {
      // Without credentials and for a server and ids that do not exist: nothing is changed.
      const r = await fetch(site.url + path.replace(/\{slug\}/g, 'no-such-server').replace(/\{id\}/g, 'no-such-id'), { method, redirect: 'manual' })
      const body = r.headers.get('content-type')?.startsWith('application/json') ? await r.json() as { error?: { message?: string } } : null
      if (body?.error?.message === 'no such path') unrouted.push(`${method} ${path}`)
    }
    expect(unrouted).toEqual([])
  })

  test('every route of the JSON API is documented: those under /api/ (the reference itself aside) and the vote form\'s JSON answer', () => {
    const documented = new Set(operations().map(({ method, path }) => `${method} ${path}`))
    const missing = site.app.routes
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
      .filter((r) => (r.includes(' /api/') || r === 'POST /serveur/{slug}/voter') && !r.includes(' /api/docs') && !documented.has(r))
    expect(missing).toEqual([])
    // Pages are not API: the vote page itself (GET) stays out.
    expect([...documented].filter((r) => !r.includes(' /api/v1/'))).toEqual(['POST /serveur/{slug}/voter'])
  })

  // Before the walk below, which ends the session and deletes the server.
  test('the usual bad requests (no session or key, an unknown server, a body field the route does not know) get a status the operation documents, in the error shape', async () => {
    const faults: string[] = []
    const check = async (name: string, op: Operation, what: string, r: Response) => {
      if (r.status < 400) return
      const text = await r.text()
      const answer = op.responses?.[String(r.status)]
      if (!answer) faults.push(`${name} (${what}): ${r.status} is not documented (${Object.keys(op.responses ?? {}).join(', ')}): ${text.slice(0, 100)}`)
      else if (!answer.content?.['application/json']) faults.push(`${name} (${what}): ${r.status} is documented without its JSON error body`)
      else faults.push(...schemaErrors(answer.content['application/json'].schema, JSON.parse(text)).map((e) => `${name} (${what}): ${e}`))
    }
    // A second vote at once: 429 VOTE_TOO_SOON, with nextVoteAt.
    const vote = operations().find((o) => o.path === '/serveur/{slug}/voter')!
    await site.send('POST', `/serveur/${site.slug}/voter`, { pseudo: 'Steve' })
    const tooSoon = await site.send('POST', `/serveur/${site.slug}/voter`, { pseudo: 'Steve' })
    expect(tooSoon.status).toBe(429)
    await check('POST /serveur/{slug}/voter', vote.op, 'a vote too soon', tooSoon)
    for (const { method, path, op } of operations()) {
      const name = `${method} ${path}`
      const at = (slug: string) => site.url + path.replace('{slug}', slug).replace('{id}', 'no-such-id')
      // No credentials at all: the key and the session are checked before anything else.
      await check(name, op, 'no credentials', await fetch(at(site.slug), { method, redirect: 'manual' }))
      if (path.includes('{slug}')) await check(name, op, 'unknown server', await site.send(method, path.replace('{slug}', 'no-such-server').replace('{id}', 'no-such-id')))
      if (op.requestBody?.content['application/json']) {
        const r = await fetch(at('no-such-server').replace('no-such-server', site.slug), { method, headers: { ...site.headers, 'content-type': 'application/json' }, body: '{"notAField":1}', redirect: 'manual' })
        await check(name, op, 'unknown body field', r)
      }
    }
    expect(faults).toEqual([])
  })

  test('a good request to each operation gets a status, a content type and a body the document gives', async () => {
    const slug = site.slug
    // What each operation is sent: path parameters, query and body. Every operation is walked but
    // those named in NOT_WALKED.
    // `status`: the answer expected where it is not a success (documented too).
    // `advance`: past the vote interval first (every vote here comes from 127.0.0.1).
    const requests: Record<string, { path?: string; query?: string; body?: unknown; type?: string; status?: number; advance?: boolean }> = {
      'POST /api/v1/auth/register': { body: { email: 'new@example.com', password: 'correct horse battery' } },
      'POST /api/v1/auth/login': { body: { email: 'owner@example.com', password: 'correct horse battery' } },
      'POST /api/v1/auth/reset': { body: { token: 'not-a-token', password: 'correct horse battery' }, status: 400 },
      'POST /api/v1/me/servers/{slug}/verification': { status: 409 }, // play.example.com has no MOTD to read
      'PATCH /api/v1/admin/users/{id}': { path: site.otherId, body: { disabled: false } },
      'POST /api/v1/admin/users/{id}/reset-link': { path: site.otherId },
      'DELETE /api/v1/admin/users/{id}': { path: site.otherId },
      'POST /api/v1/me/servers': { body: { name: 'Beta', host: '127.0.0.1', slug: 'beta' } },
      'PATCH /api/v1/me/servers/{slug}': { body: { description: 'A friendly server' } },
      'POST /api/v1/me/servers/{slug}/keys': { body: { name: 'plugin' } },
      'DELETE /api/v1/me/servers/{slug}/keys/{id}': { path: site.spareKey },
      'PUT /api/v1/me/servers/{slug}/webhook': { body: { url: 'http://127.0.0.1:9/hook' } },
      'PUT /api/v1/me/servers/{slug}/votifier': { body: { host: '127.0.0.1', protocol: 'v2' } },
      'POST /api/v1/me/servers/{slug}/test': { body: {} },
      'PUT /api/v1/me/servers/{slug}/banner': { body: png(468, 60), type: 'image/png' },
      'POST /serveur/{slug}/voter': { body: { pseudo: 'Alex' }, advance: true },
      'GET /api/v1/votes/check': { query: 'pseudo=Steve' },
      'POST /api/v1/votes/claim': { query: 'pseudo=Steve' },
    }
    // Run last, in this order: they end what the others need (the session, the server, channels;
    // a sign-up or login ends the session the request carries).
    const LAST = ['POST /api/v1/me/servers/{slug}/webhook/rotate', 'DELETE /api/v1/me/servers/{slug}/webhook', 'DELETE /api/v1/me/servers/{slug}/votifier',
      'DELETE /api/v1/me/servers/{slug}/banner', 'DELETE /api/v1/me/servers/{slug}', 'DELETE /api/v1/admin/users/{id}',
      'POST /api/v1/auth/register', 'POST /api/v1/auth/login', 'POST /api/v1/auth/logout']
    const NOT_WALKED = new Set([
      'POST /api/v1/me/servers/{slug}/deliveries/{id}/redeliver', // a failed delivery to resend: test/deliveries
      'PUT /api/v1/me/servers/{slug}/discord', 'GET /api/v1/me/servers/{slug}/discord', 'DELETE /api/v1/me/servers/{slug}/discord', // discord.com is not called from tests
      'GET /api/v1/vote-challenge', // the captcha is off here: test/captcha
      'GET /api/v1/me/servers/{slug}/webhook', 'GET /api/v1/me/servers/{slug}/votifier', // walked below, after the PUTs
    ])
    const order = operations().filter(({ method, path }) => !NOT_WALKED.has(`${method} ${path}`) && !LAST.includes(`${method} ${path}`))
    const byName = new Map(operations().map((o) => [`${o.method} ${o.path}`, o]))
    const step = (name: string, req = requests[name] ?? {}) => ({ ...byName.get(name)!, name, req })
    const walk = [
      ...order.map((o) => step(`${o.method} ${o.path}`)),
      // Other answers of one operation: the history as CSV, check and claim as text.
      step('GET /api/v1/servers/{slug}/history', { query: 'format=csv' }),
      step('GET /api/v1/votes/check', { query: 'pseudo=Steve&format=text' }),
      step('POST /api/v1/votes/claim', { query: 'pseudo=Steve&format=text' }),
      ...['GET /api/v1/me/servers/{slug}/webhook', 'GET /api/v1/me/servers/{slug}/votifier', ...LAST].map((n) => step(n)),
    ]
    expect(new Set(walk.map((o) => o.name)).size + NOT_WALKED.size - 2).toBe(byName.size)

    const faults: string[] = []
    for (const { method, path, op, name, req } of walk) {
      const target = path.replace('{slug}', slug).replace('{id}', req.path ?? '') + (req.query ? `?${req.query}` : '')
      if (req.advance) site.clock.advance(60_000)
      const r = await site.send(method, target, req.body, req.type)
      const type = (r.headers.get('content-type') ?? '').split(';')[0]
      const text = await r.text()
      const answer = op.responses?.[String(r.status)]
      if (r.status >= 300 && r.status !== req.status) faults.push(`${name}: ${r.status} to a good request: ${text.slice(0, 160)}`)
      else if (!answer) faults.push(`${name}: status ${r.status} is not documented (${Object.keys(op.responses ?? {}).join(', ') || 'none is'})`)
      else if (!answer.content?.[type]) faults.push(`${name}: ${r.status} answers ${type}, documented: ${Object.keys(answer.content ?? {}).join(', ') || 'none'}`)
      else if (type === 'application/json') faults.push(...schemaErrors(answer.content[type].schema, JSON.parse(text)).map((e) => `${name}: ${e}`))
    }
    expect(faults).toEqual([])
  })
})
