import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import { use } from '../../src/db/store.ts'
import { recordVote } from '../../src/votes/service.ts'
import { backends, closeTestSites } from '../backends.ts'
import { deliveryRows, deliveryRuntime } from '../deliveries/setup.ts'
import { holdNextWrite, lockWaits } from '../held-write.ts'
import { call, cleanupTemp, testApp } from '../helpers.ts'
import { until } from '../until.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.ts'

const SECRET = 'whsec_' + 's'.repeat(43)
let webhook: WebhookReceiver | null = null
afterEach(async () => { webhook?.stop(); webhook = null; await closeTestSites() })
afterAll(cleanupTemp)

// Redeliver answers 409 "while an attempt is in progress". On PostgreSQL the attempt may be begun
// by another instance (its ledger's transaction) between redeliver's check and its write.
describe.if(backends.includes('postgres'))('redeliver racing an attempt begun on another instance [postgres]', () => {
  test('an attempt begun while the redeliver is being written: 409, and no second series sent alongside it', async () => {
    const { rt, server, owner } = await deliveryRuntime('postgres')
    const app = await testApp(rt)
    const cookie = `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, owner.id)).token}`
    webhook = startWebhookReceiver(SECRET)
    await rt.store.channels.putWebhook(server.id, webhook.url(), SECRET, rt.clock.now())
    webhook.reply(500)
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    const [d] = await deliveryRows(rt)
    expect(d).toMatchObject({ status: 'failed', attempts: 1 })

    // The other instance has claimed the retry and begins attempt 2: its row is written, its
    // transaction not committed yet.
    const other = holdNextWrite(rt)
    const begun = other.store.write((tx) => use(tx.deliveries.startAttempts([{ deliveryId: d.id, series: 1, at: rt.clock.now() }])))
    await until(() => other.written(), 'the other instance\'s attempt to be written')
    const redo = call(app, 'POST', `/api/v1/me/servers/${server.slug}/deliveries/${d.id}/redeliver`, { headers: { cookie } })
    await until(async () => (await lockWaits(rt)) >= 1, 'the redeliver to wait for the other instance\'s transaction')
    other.release()
    const [started] = await begun
    expect(started).toMatchObject({ attempt: 2 })
    const res = await redo
    // Attempt 2 is being sent by the other instance: nothing else goes out meanwhile, and it is not
    // closed as interrupted under it.
    await rt.queue.drain()
    expect(webhook.received.length).toBe(1)
    expect((await rt.rows<{ attempt: number; status: string }>('SELECT attempt, status FROM delivery_attempt ORDER BY id')).map((a) => [a.attempt, a.status]))
      .toEqual([[1, 'failed'], [2, 'pending']])
    expect(res.status).toBe(409)
    expect((await res.json()).error.reason).toBe('ATTEMPT_IN_PROGRESS')
    expect((await rt.row<{ n: number }>("SELECT count(*) AS n FROM job WHERE kind = 'delivery'"))!.n).toBe(1)
  })
})
