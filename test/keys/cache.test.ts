import { afterAll, describe, expect, test } from 'bun:test'
import { registerSiteWork } from '../../src/site.ts'
import { createKey } from '../../src/keys/service.ts'
import { call, cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'
import { as, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

async function setup() {
  const rt = testRuntime()
  const app = await testApp(rt)
  const seeded = await seedServer(rt)
  // Count the key lookups that reach the database.
  let lookups = 0
  const liveByHash = rt.store.keys.liveByHash
  rt.store.keys.liveByHash = (hash) => { lookups++; return liveByHash(hash) }
  const status = async (key: string) => (await call(app, 'GET', '/api/v1/votes/check?pseudo=Steve', { headers: { 'X-Api-Key': key } })).status
  return { rt, app, ...seeded, status, lookups: () => lookups }
}

describe('API key cache', () => {
  test('once warm, a key costs no database lookup until its one-second recheck', async () => {
    const s = await setup()
    for (let i = 0; i < 50; i++) {
      expect(await s.status(s.key)).toBe(200)
      s.rt.clock.advance(19)
    }
    // 50 requests over 950 ms: one lookup.
    expect(s.lookups()).toBe(1)
    s.rt.clock.advance(50)
    expect(await s.status(s.key)).toBe(200)
    expect(s.lookups()).toBe(2)
  })

  test('a key revoked behind the cache\'s back (the command line, another process) is refused within one second', async () => {
    const s = await setup()
    const k = await createKey(s.rt, s.server.id)
    expect(await s.status(k.key)).toBe(200)
    const checkedAt = s.rt.clock.now()
    s.rt.clock.advance(10)
    expect(s.rt.store.keys.revoke(k.id, s.server.id, s.rt.clock.now())).toBe(true)
    s.rt.clock.set(checkedAt + 999)
    expect(await s.status(k.key)).toBe(200)
    s.rt.clock.set(checkedAt + 1000)
    expect(await s.status(k.key)).toBe(401)
    // The other key of the server is untouched.
    expect(await s.status(s.key)).toBe(200)
  })

  test('forgetKey (what the revoke route calls) refuses the key from the next request on', async () => {
    const s = await setup()
    const k = await createKey(s.rt, s.server.id)
    expect(await s.status(k.key)).toBe(200)
    s.rt.store.keys.revoke(k.id, s.server.id, s.rt.clock.now())
    s.rt.keyCache.forgetKey(k.id)
    expect(await s.status(k.key)).toBe(401)
  })

  test('forgetServer picks up a renamed server at once', async () => {
    const s = await setup()
    const stats = async () => (await (await call(s.app, 'GET', '/api/v1/server', { headers: { 'X-Api-Key': s.key } })).json()).server.name
    expect(await stats()).toBe('Emerald Valley')
    s.rt.store.servers.update({ ...s.server, name: 'Ruby Valley' })
    s.rt.keyCache.forgetServer(s.server.id)
    expect(await stats()).toBe('Ruby Valley')
  })

  test('unknown keys are remembered for a second too (a misconfigured plugin costs no query per poll)', async () => {
    const s = await setup()
    for (let i = 0; i < 20; i++) expect(await s.status('vlk_wrong')).toBe(401)
    expect(s.lookups()).toBe(1)
    // A key created meanwhile is found (its secret was never looked up before).
    const k = await createKey(s.rt, s.server.id)
    expect(await s.status(k.key)).toBe(200)
  })

  test('last_used_at is written by the scheduled flush, at most once a minute per key, never per request', async () => {
    const s = await setup()
    registerSiteWork(s.rt)
    const lastUsed = () => (s.rt.db.query('SELECT last_used_at AS t FROM api_key WHERE prefix = ?').get(s.key.slice(0, 8)) as { t: number | null }).t
    let writes = 0
    const touch = s.rt.store.keys.touch
    s.rt.store.keys.touch = (id, at) => { writes++; touch(id, at) }
    await s.rt.scheduler.tick()
    for (let i = 0; i < 30; i++) {
      expect(await s.status(s.key)).toBe(200)
      s.rt.clock.advance(1000)
    }
    expect(lastUsed()).toBeNull()
    const usedAt = s.rt.clock.now() - 1000
    s.rt.clock.advance(30_000)
    await s.rt.scheduler.tick()
    expect(lastUsed()).toBe(usedAt)
    expect(writes).toBe(1)
    // Nothing used since: nothing written.
    s.rt.clock.advance(60_000)
    await s.rt.scheduler.tick()
    expect(writes).toBe(1)
  })
})

describe('owner routes and the key cache', () => {
  test('revoking a key, renaming or deleting its server through the owner API takes effect at the next request', async () => {
    const rt = testRuntime()
    const app = await testApp(rt)
    const owner = as(app, (await ownerSession(rt, 'owner@example.com')).headers)
    await owner('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com' })
    const created = await (await owner('POST', '/api/v1/me/servers/alpha/keys')).json()
    const other = await (await owner('POST', '/api/v1/me/servers/alpha/keys')).json()
    const stats = (key: string) => call(app, 'GET', '/api/v1/server', { headers: { 'X-Api-Key': key } })
    expect((await stats(created.key)).status).toBe(200)
    expect((await owner('DELETE', `/api/v1/me/servers/alpha/keys/${created.id}`)).status).toBe(200)
    // The clock has not moved: the one-second recheck is not what refuses it.
    expect((await stats(created.key)).status).toBe(401)

    expect((await (await stats(other.key)).json()).server.name).toBe('Alpha')
    expect((await owner('PATCH', '/api/v1/me/servers/alpha', { name: 'Alpha Prime' })).status).toBe(200)
    expect((await (await stats(other.key)).json()).server.name).toBe('Alpha Prime')
    expect((await owner('DELETE', '/api/v1/me/servers/alpha')).status).toBe(200)
    expect((await stats(other.key)).status).toBe(401)
  })
})
