import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { use } from '../../src/db/store.ts'
import { recordRound } from '../../src/stats/round.ts'
import { deleteServer } from '../../src/servers/service.ts'
import { backends, closeTestSites } from '../backends.ts'
import { holdNextWrite, lockWaits } from '../held-write.ts'
import { cleanupTemp, seedServer, siteOn } from '../helpers.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

const up = { online: true, playersOnline: 7, playersMax: 20, version: '1.21.4', motd: 'hi', styledMotd: null, favicon: null, latencyMs: 12, error: null }

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
    const measured = targets.map((target) => ({ serverNum: target.num, status: up, at: t }))

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
