import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { hashKey } from '../../src/keys/service.ts'
import { listenToOtherInstances } from '../../src/site.ts'
import { backends, closeTestSites, onTestEnd } from '../backends.ts'
import { call, cleanupTemp, seedServer, siteAgain, siteOn, testApp, type BackendRuntime } from '../helpers.ts'
import { as, cookieOf, ownerSession } from '../owner/session.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)
afterEach(closeTestSites)

// Two instances hearing each other, as serve starts them. Their clock stands still: a cached key
// is never read again by age, so only what the other instance tells can change the answers.
async function twoInstances() {
  const a = await siteOn('postgres')
  const b = await siteAgain(a)
  for (const rt of [a, b]) {
    const listening = (await listenToOtherInstances(rt))!
    onTestEnd(() => listening.stop())
  }
  const seeded = await seedServer(a)
  const [appA, appB] = await Promise.all([testApp(a), testApp(b)])
  const admin = as(appA, (await ownerSession(a, 'alice@example.com', true)).headers)
  const serverOf = (app: typeof appA) => call(app, 'GET', '/api/v1/server', { headers: { 'x-api-key': seeded.key } })
  return { ...seeded, a, b, appA, appB, admin, serverOf }
}

const listenerPids = (rt: BackendRuntime) =>
  rt.rows<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()")

describe.if(backends.includes('postgres'))('caches of several instances on PostgreSQL', () => {
  test('a key revoked on one instance is refused by the other as soon as it hears of it', async () => {
    const { appB, admin, serverOf, server } = await twoInstances()
    expect((await serverOf(appB)).status).toBe(200) // cached by B
    const [{ id }] = (await (await admin('GET', `/api/v1/me/servers/${server.slug}/keys`)).json()).keys
    expect((await admin('DELETE', `/api/v1/me/servers/${server.slug}/keys/${id}`)).status).toBe(200)
    await until(async () => (await serverOf(appB)).status === 401, 'B refusing the revoked key')
    expect((await (await serverOf(appB)).json()).error.code).toBe('INVALID_KEY')
  })

  test('a server renamed or deleted on one instance: the other shows the new name, then refuses its keys', async () => {
    const { appB, admin, serverOf, server } = await twoInstances()
    expect((await (await serverOf(appB)).json()).server.name).toBe(server.name)
    expect((await admin('PATCH', `/api/v1/me/servers/${server.slug}`, { name: 'Renamed Valley' })).status).toBe(200)
    await until(async () => (await (await serverOf(appB)).json()).server?.name === 'Renamed Valley', 'B showing the new name')
    expect((await admin('DELETE', `/api/v1/me/servers/${server.slug}`)).status).toBe(200)
    await until(async () => (await serverOf(appB)).status === 401, 'B refusing the deleted server\'s key')
  })

  test('a session logged out on one instance is refused by the other at once', async () => {
    const { appA, appB } = await twoInstances()
    const login = await call(appA, 'POST', '/api/v1/auth/login', { body: { email: 'owner@example.com', password: 'correct horse battery' } })
    expect(login.status).toBe(200)
    const cookie = cookieOf(login)
    expect((await call(appB, 'GET', '/api/v1/me', { headers: { cookie } })).status).toBe(200)
    expect((await call(appA, 'POST', '/api/v1/auth/logout', { headers: { cookie, origin: 'http://localhost:8080' } })).status).toBe(200)
    expect((await call(appB, 'GET', '/api/v1/me', { headers: { cookie } })).status).toBe(401)
  })

  test('after the listening connection was lost and made again, every cached key is read again', async () => {
    const { a, appB, serverOf, key } = await twoInstances()
    expect((await serverOf(appB)).status).toBe(200)
    await until(async () => (await listenerPids(a)).length === 2, 'both instances listening')
    const before = await listenerPids(a)
    // Revoked behind the instances' backs (nobody is told), then B's listening connection drops.
    await a.rows('UPDATE api_key SET revoked_at = ? WHERE hash = ?', a.clock.now(), hashKey(key))
    expect((await serverOf(appB)).status).toBe(200)
    await a.rows('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY(?::int[])', before.map((p) => p.pid))
    await until(async () => (await listenerPids(a)).filter((p) => !before.some((o) => o.pid === p.pid)).length === 2, 'both instances listening again', 30_000)
    await until(async () => (await serverOf(appB)).status === 401, 'B reading the key again')
  })
})
