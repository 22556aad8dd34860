import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { use } from '../../src/db/store.ts'
import { recordRound } from '../../src/stats/round.ts'
import { deleteServer } from '../../src/servers/service.ts'
import { backends, closeTestSites, describeBackends } from '../backends.ts'
import { holdNextWrite, lockWaits } from '../held-write.ts'
import { cleanupTemp, seedServer, siteOn } from '../helpers.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

const up = { online: true, playersOnline: 7, playersMax: 20, version: '1.21.4', motd: 'hi', styledMotd: null, favicon: null, latencyMs: 12, error: null }

describeBackends('a ping round and the servers deleted and listed while it pings', (backend) => {
  test('a server listed while a round pings never gets the measurement of a server deleted meanwhile', async () => {
    const rt = await siteOn(backend)
    const { owner, server: first } = await seedServer(rt, { name: 'First' })
    const { server: last } = await seedServer(rt, { name: 'Last' })
    // The round reads its targets, then pings them; meanwhile the newest listing is deleted and
    // another one made.
    const targets = await rt.store.servers.pingTargets()
    await deleteServer(rt, last, owner)
    const { server: next } = await seedServer(rt, { name: 'Next' })
    const t = rt.clock.now()
    const measured = targets.map((target) => ({ serverNum: target.num, serverId: target.id, status: up, at: t }))
    await rt.store.write((tx) => recordRound(tx, t, targets, measured))
    expect(await rt.store.servers.status(first.num)).toMatchObject({ online: true, playersOnline: 7 })
    expect(await rt.store.servers.status(next.num)).toBeNull()
    expect(await rt.row('SELECT count(*) AS n FROM ping_sample WHERE server_num = ?', next.num)).toEqual({ n: 0 })
  })
})

// On SQLite a ping round's transaction runs alone: a server deleted before it is left out, one
// deleted after it has its measurement deleted with it. On PostgreSQL a deletion still open when
// the round writes must not make the round fail, which would lose every server's measurement.
describe.if(backends.includes('postgres'))('a ping round and a server deleted at once on PostgreSQL', () => {
  afterEach(closeTestSites)

  test('the round waits for the deletion, leaves the deleted server out and records the others', async () => {
    const rt = await siteOn('postgres')
    const { owner, server: gone } = await seedServer(rt, { name: 'Gone Soon' })
    const { server: kept } = await seedServer(rt, { name: 'Still Here' })
    const targets = await rt.store.servers.pingTargets()
    const t = rt.clock.now()
    const measured = targets.map((target) => ({ serverNum: target.num, serverId: target.id, status: up, at: t }))

    const held = holdNextWrite(rt)
    const deleting = deleteServer({ store: held.store, clock: rt.clock }, gone, owner)
    await until(held.written, 'the deletion to be written')
    let settled = false
    const round = rt.store.write(function* (tx) {
      yield* recordRound(tx, t, targets, measured)
      return yield* use(tx.stats.recordLastRound({ t, servers: measured.length, up: measured.length, durationMs: 12, finishedAt: t }))
    }).catch((e: unknown) => e).finally(() => { settled = true })
    try {
      await until(async () => settled || (await lockWaits(rt)) === 1, 'the round to wait for the deletion, or to end')
    } finally {
      held.release()
    }
    await deleting
    expect(await round).toBeUndefined()
    expect(await rt.store.servers.bySlug(gone.slug)).toBeNull()
    expect(await rt.store.servers.status(kept.num)).toMatchObject({ online: true, playersOnline: 7 })
    expect(await rt.store.stats.lastRound()).toMatchObject({ t, servers: 2 })
  })
})
