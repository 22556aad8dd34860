import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { deleteServer } from '../../src/servers/service.ts'
import { backends, closeTestSites } from '../backends.ts'
import { holdNextWrite, lockWaits } from '../held-write.ts'
import { cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

// On SQLite a vote's transaction and a server's deletion never overlap: the vote that comes after
// reads the listing again and is answered 404. On PostgreSQL they can: the deletion commits while
// the vote's transaction is writing, and the vote's insert finds its server gone.
describe.if(backends.includes('postgres'))('a vote meeting its server\'s deletion on PostgreSQL', () => {
  afterEach(closeTestSites)

  test('the vote is answered 404 as for a server no longer listed, not 500, and nothing of it stays', async () => {
    const rt = await siteOn('postgres')
    const { owner, server } = await seedServer(rt)
    const app = testApp(rt)
    const vote = () => app.handle(new Request(`http://localhost/serveur/${server.slug}/voter`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ pseudo: 'Steve' }),
    }))
    // The vote path knows the server (as after any earlier vote).
    expect((await app.handle(new Request(`http://localhost/serveur/${server.slug}`))).status).toBe(200)
    const held = holdNextWrite(rt)
    const deleted = deleteServer({ store: held.store, clock: rt.clock }, server, { id: owner.id, email: owner.email, isAdmin: false })
    await until(held.written, 'the deletion to be written, not committed')
    let settled = false
    const answer = vote().finally(() => { settled = true })
    try {
      await until(async () => settled || (await lockWaits(rt)) === 1, 'the vote to wait for the deletion, or to end')
    } finally {
      held.release()
    }
    await deleted
    const r = await answer
    expect({ status: r.status, body: await r.json() }).toEqual({
      status: 404, body: { ok: false, error: { code: 'NOT_FOUND', message: `no server with the slug "${server.slug}" is listed`, field: 'slug' } },
    })
    expect(await rt.rows('SELECT id FROM vote')).toEqual([])
    expect(await rt.rows('SELECT server_id FROM server_month')).toEqual([])
  })
})
