import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { saveWebhook } from '../../src/channels/service.ts'
import { backends, closeTestSites } from '../backends.ts'
import { holdNextWrite, lockWaits } from '../held-write.ts'
import { cleanupTemp, seedServer, siteOn, testLookup } from '../helpers.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

// The secret is made at the first save and kept by every later one. On SQLite the saves run one
// after the other, so a second save reads the first one's secret; on PostgreSQL two first saves
// at once (a double-clicked Save) must also end with one secret, the one both answered.
describe.if(backends.includes('postgres'))('two first saves of a webhook at once on PostgreSQL', () => {
  afterEach(closeTestSites)

  test('the second keeps the secret of the first, and both answer it', async () => {
    const rt = await siteOn('postgres')
    const { server } = await seedServer(rt)
    const held = holdNextWrite(rt)
    const first = saveWebhook({ ...rt, store: held.store, lookup: testLookup }, server.id, 'https://hooks.example.com/votes')
    await until(held.written, 'the first save to be written')
    let settled = false
    const second = saveWebhook({ ...rt, lookup: testLookup }, server.id, 'https://hooks.example.com/votes').finally(() => { settled = true })
    try {
      await until(async () => settled || (await lockWaits(rt)) === 1, 'the second save to wait for the first, or to end')
    } finally {
      held.release()
    }
    const { secret } = await first
    expect((await second).secret).toBe(secret)
    expect((await rt.store.channels.webhook(server.id))!.secret).toBe(secret)
  })
})
