import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import { migrations } from '../../src/db/migrations.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { call, cleanupTemp, tempDir, testApp } from '../helpers.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.ts'
import { deliveryRuntime, freePort } from './setup.ts'

// The Deliveries tab's filters (channel, outcome) and its "attempt n of 8" within a series.

const SECRET = 'whsec_' + 's'.repeat(43)
const stops: WebhookReceiver[] = []
afterEach(() => { for (const r of stops.splice(0)) r.stop() })
afterAll(cleanupTemp)

async function setup(backend: Backend) {
  const ctx = await deliveryRuntime(backend, { deliveries: { retry_delays: ['1m', '5m'] } })
  const app = await testApp(ctx.rt)
  const cookie = `${sessionCookieName(ctx.rt.siteUrl)}=${(await startSession(ctx.rt, ctx.owner.id)).token}`
  const webhook = startWebhookReceiver(SECRET)
  stops.push(webhook)
  const list = async (q = '') => {
    const res = await call(app, 'GET', `/api/v1/me/servers/${ctx.server.slug}/deliveries${q}`, { headers: { cookie } })
    return { status: res.status, body: await res.json() }
  }
  return { ...ctx, app, cookie, webhook, list }
}

describeBackends('GET …/deliveries filters', (backend) => {
  test('channel and status filter the attempts; paging keeps the filter', async () => {
    const { rt, server, webhook, list } = await setup(backend)
    await rt.store.channels.putWebhook(server.id, webhook.url(), SECRET, rt.clock.now())
    await rt.store.channels.putVotifier({ serverId: server.id, host: '127.0.0.1', port: freePort(), protocol: 'v2', publicKey: null, token: 'tok' }, rt.clock.now())
    for (const [i, pseudo] of ['Steve', 'Alex', 'Notch'].entries()) await recordVote(rt, server, pseudo, [`203.0.113.${i + 1}`])
    await rt.queue.drain()

    const all = (await list()).body.deliveries
    expect(all.map((d: any) => [d.channel, d.status]).sort()).toEqual([
      ['votifier', 'failed'], ['votifier', 'failed'], ['votifier', 'failed'],
      ['webhook', 'succeeded'], ['webhook', 'succeeded'], ['webhook', 'succeeded'],
    ])
    const votifier = (await list('?channel=votifier')).body
    expect(votifier.deliveries.map((d: any) => d.channel)).toEqual(['votifier', 'votifier', 'votifier'])
    expect(votifier.deliveries.map((d: any) => d.id)).toEqual(all.filter((d: any) => d.channel === 'votifier').map((d: any) => d.id))
    expect((await list('?status=succeeded')).body.deliveries.map((d: any) => d.channel)).toEqual(['webhook', 'webhook', 'webhook'])
    expect((await list('?channel=webhook&status=failed')).body.deliveries).toEqual([])

    const page1 = (await list('?channel=votifier&limit=2')).body
    expect(page1.deliveries.length).toBe(2)
    const page2 = (await list(`?channel=votifier&limit=2&before=${page1.next}`)).body
    expect(page2.deliveries.map((d: any) => d.channel)).toEqual(['votifier'])
    expect(page2.next).toBeNull()
  })

  test('a bad filter is a 400 naming it', async () => {
    const { list } = await setup(backend)
    expect(await list('?channel=email')).toEqual({ status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'channel must be "votifier", "webhook" or "discord"', field: 'channel' } } })
    expect(await list('?status=lost')).toEqual({ status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'status must be one of succeeded, failed, gave_up, pending', field: 'status' } } })
  })
})

describeBackends('attempt n of N', (backend) => {
  test('attemptsPerSeries follows retry_delays; a redeliver starts a new series at 1 while attempt goes on', async () => {
    const { rt, app, cookie, server, webhook, list } = await setup(backend)
    await rt.store.channels.putWebhook(server.id, webhook.url(), SECRET, rt.clock.now())
    webhook.reply(500, 500, 500)
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    rt.clock.advance(60_000)
    await rt.queue.drain()
    rt.clock.advance(5 * 60_000)
    await rt.queue.drain()
    const before = (await list()).body
    expect(before.attemptsPerSeries).toBe(3)
    expect(before.deliveries.map((d: any) => [d.attempt, d.seriesAttempt, d.redelivery, d.status])).toEqual([[3, 3, false, 'gave_up'], [2, 2, false, 'failed'], [1, 1, false, 'failed']])

    const id = before.deliveries[0].deliveryId
    expect((await call(app, 'POST', `/api/v1/me/servers/${server.slug}/deliveries/${id}/redeliver`, { headers: { cookie } })).status).toBe(200)
    await rt.queue.drain()
    const after = (await list()).body.deliveries
    expect(after.map((d: any) => [d.attempt, d.seriesAttempt, d.redelivery, d.status])[0]).toEqual([4, 1, true, 'succeeded'])
  })

  test('the migration files attempts of older databases under their delivery\'s series', () => {
    const db = new Database(join(tempDir(), 'old.db'), { strict: true })
    const at0060 = migrations.findIndex((m) => m.name === '0060_attempt_series')
    for (const m of migrations.slice(0, at0060)) db.exec(m.sql)
    db.exec(`INSERT INTO "user" (id, email, email_key, password_hash, is_admin, created_at) VALUES ('u', 'a@example.com', 'a@example.com', 'x', 1, 0)`)
    db.exec(`INSERT INTO server (id, owner_id, slug, name, host, created_at, updated_at) VALUES ('s', 'u', 'srv', 'Srv', 'example.com', 0, 0)`)
    db.exec(`INSERT INTO delivery (id, server_id, vote_id, channel, test, pseudo, payload, status, attempts, series_start, created_at, updated_at)
      VALUES ('d', 's', NULL, 'webhook', 0, 'Steve', '{}', 'succeeded', 4, 3, 0, 0)`)
    for (let a = 1; a <= 4; a++) db.exec(`INSERT INTO delivery_attempt (delivery_id, server_id, attempt, status, started_at) VALUES ('d', 's', ${a}, 'failed', 0)`)
    db.exec(migrations[at0060].sql)
    expect(db.query('SELECT attempt, attempt - series_start + 1 AS n FROM delivery_attempt ORDER BY attempt').all())
      .toEqual([{ attempt: 1, n: 1 }, { attempt: 2, n: 2 }, { attempt: 3, n: 1 }, { attempt: 4, n: 2 }])
  })
})
