import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { call, cleanupTemp, seedServer, testApp, type BackendRuntime } from '../helpers.ts'
import { startVotifierReceiver, votifierKeyPair, type VotifierReceiver } from '../push/votifier-receiver.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.ts'
import { attemptRows, deliveryRows, deliveryRuntime, freePort, jobCount } from './setup.ts'

const SECRET = 'whsec_' + 's'.repeat(43)
const stops: (VotifierReceiver | WebhookReceiver)[] = []
afterEach(() => { for (const r of stops.splice(0)) r.stop() })
afterAll(cleanupTemp)

async function setup(backend: Backend, serviceName = 'MyServerList') {
  const ctx = await deliveryRuntime(backend, { site: { service_name: serviceName } })
  const app = await testApp(ctx.rt)
  const cookie = `${sessionCookieName(ctx.rt.siteUrl)}=${(await startSession(ctx.rt, ctx.owner.id)).token}`
  const votifier = startVotifierReceiver({ tokens: { [serviceName]: 'tok' } })
  const webhook = startWebhookReceiver(SECRET)
  stops.push(votifier, webhook)
  return { ...ctx, app, cookie, votifier, webhook }
}

const configure = async (rt: BackendRuntime, serverId: string, votifierPort: number, webhookUrl: string) => {
  await rt.store.channels.putVotifier({ serverId, host: '127.0.0.1', port: votifierPort, protocol: 'v2', publicKey: null, token: 'tok' }, rt.clock.now())
  await rt.store.channels.putWebhook(serverId, webhookUrl, SECRET, rt.clock.now())
}

describeBackends('POST /api/v1/me/servers/{slug}/test', (backend) => {
  test('sends a test vote on every channel at once and answers each outcome; recorded as a test, not a vote', async () => {
    const { rt, app, cookie, server, votifier, webhook } = await setup(backend, 'CraftList')
    await configure(rt, server.id, votifier.port, webhook.url())
    const res = await call(app, 'POST', `/api/v1/me/servers/${server.slug}/test`, { headers: { cookie } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toEqual({
      ok: true,
      results: [
        { channel: 'votifier', status: 'succeeded', error: null, durationMs: expect.any(Number) },
        { channel: 'webhook', status: 'succeeded', error: null, durationMs: expect.any(Number) },
      ],
    })
    // The service name is site.service_name, the one the listener's token is registered under.
    expect(votifier.votes).toEqual([expect.objectContaining({ serviceName: 'CraftList', username: 'VotelistTest', address: '0.0.0.0' })])
    expect(webhook.received[0].json).toMatchObject({ event: 'test', vote: { pseudo: 'VotelistTest' } })
    expect(webhook.received[0].headers['x-tsm-event']).toBe('test')
    expect(webhook.received[0].signatureValid).toBe(true)
    expect((await deliveryRows(rt)).map((d) => [d.channel, d.test, d.status])).toEqual([['votifier', 1, 'succeeded'], ['webhook', 1, 'succeeded']])
    expect((await rt.row('SELECT count(*) AS n FROM vote') as { n: number }).n).toBe(0)
    expect(await jobCount(rt)).toBe(0)
  })

  test('a failing channel is reported with its error and never retried; a pseudo can be chosen', async () => {
    const { rt, app, cookie, server, webhook } = await setup(backend)
    await configure(rt, server.id, freePort(), webhook.url())
    const res = await call(app, 'POST', `/api/v1/me/servers/${server.slug}/test`, { headers: { cookie }, body: { pseudo: 'Notch' } })
    const { results } = await res.json()
    expect(results[0]).toMatchObject({ channel: 'votifier', status: 'failed' })
    expect(results[0].error).toStartWith('connection refused by 127.0.0.1:')
    expect(results[1]).toMatchObject({ channel: 'webhook', status: 'succeeded' })
    expect(webhook.received[0].json.vote.pseudo).toBe('Notch')
    expect((await attemptRows(rt)).find((a) => a.status === 'failed')?.nextAttemptAt).toBeNull()
    rt.clock.advance(24 * 3600_000)
    expect(await rt.queue.drain()).toBe(0)
    expect((await attemptRows(rt)).length).toBe(2)
  })

  test('no channel configured: 409; bad pseudo: 400; other owner: 403; no session: 401; unknown slug: 404', async () => {
    const { rt, app, cookie, server } = await setup(backend)
    const test = (slug: string, opts = {}) => call(app, 'POST', `/api/v1/me/servers/${slug}/test`, opts)
    const none = await test(server.slug, { headers: { cookie } })
    expect(none.status).toBe(409)
    expect((await none.json()).error.reason).toBe('NO_CHANNEL')
    await rt.store.channels.putWebhook(server.id, 'http://127.0.0.1:1/hook', SECRET, rt.clock.now())
    const bad = await test(server.slug, { headers: { cookie }, body: { pseudo: 'no spaces allowed' } })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.code).toBe('INVALID_PARAMETER')
    expect((await test(server.slug)).status).toBe(401)
    expect((await test('no-such-server', { headers: { cookie } })).status).toBe(404)
    // The first account is the admin; a second owner may not touch the admin's server.
    const other = await seedServer(rt, { name: 'Not Mine' }, 'other@example.com')
    const otherCookie = `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, other.owner.id)).token}`
    expect((await test(server.slug, { headers: { cookie: otherCookie } })).status).toBe(403)
    expect((await test(server.slug, { headers: { cookie, origin: 'https://evil.example' } })).status).toBe(403)
  })

  test('limits.test_votes_per_minute per server: RateLimit headers, then 429 with nothing sent', async () => {
    const ctx = await deliveryRuntime(backend, { limits: { test_votes_per_minute: 2 } })
    const app = await testApp(ctx.rt)
    const cookie = `${sessionCookieName(ctx.rt.siteUrl)}=${(await startSession(ctx.rt, ctx.owner.id)).token}`
    const webhook = startWebhookReceiver(SECRET)
    stops.push(webhook)
    await ctx.rt.store.channels.putWebhook(ctx.server.id, webhook.url(), SECRET, ctx.rt.clock.now())
    const send = () => call(app, 'POST', `/api/v1/me/servers/${ctx.server.slug}/test`, { headers: { cookie } })
    const first = await send()
    expect([first.status, first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining')]).toEqual([200, '2', '1'])
    ctx.rt.clock.advance(15_000)
    expect((await send()).status).toBe(200)
    const third = await send()
    expect([third.status, third.headers.get('retry-after')]).toEqual([429, '45'])
    expect((await third.json()).error.code).toBe('RATE_LIMITED')
    expect(webhook.received.length).toBe(2)
    expect((await deliveryRows(ctx.rt)).length).toBe(2)
    // Another server of the same owner has its own quota; this one is back once a minute has passed.
    const other = await seedServer(ctx.rt, { name: 'Second Place' }, 'owner2@example.com')
    await ctx.rt.store.channels.putWebhook(other.server.id, webhook.url(), SECRET, ctx.rt.clock.now())
    const otherCookie = `${sessionCookieName(ctx.rt.siteUrl)}=${(await startSession(ctx.rt, other.owner.id)).token}`
    expect((await call(app, 'POST', `/api/v1/me/servers/${other.server.slug}/test`, { headers: { cookie: otherCookie } })).status).toBe(200)
    ctx.rt.clock.advance(45_000)
    expect((await send()).status).toBe(200)
  })
})

describeBackends('settings saved through the owner API', (backend) => {
  test('a v1 key and a webhook saved by PUT are what the deliveries use; the configLine\'s token signs v2', async () => {
    const { rt, app, cookie, server } = await setup(backend)
    const keys = votifierKeyPair()
    const v1 = startVotifierReceiver({ privateKeyPem: keys.privateKeyPem })
    const put = async (path: string, body: unknown) => (await call(app, 'PUT', `/api/v1/me/servers/${server.slug}/${path}`, { headers: { cookie }, body })).json()
    const saved = await put('webhook', { url: 'http://127.0.0.1:1/placeholder' })
    const hook = startWebhookReceiver(saved.webhook.secret)
    stops.push(v1, hook)
    await put('webhook', { url: hook.url() })
    await put('votifier', { host: '127.0.0.1', port: v1.port, protocol: 'v1', publicKey: keys.publicKey })
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    await v1.waitVotes(1)
    expect(v1.votes[0]).toMatchObject({ protocol: 'v1', serviceName: 'MyServerList', username: 'Steve', address: '203.0.113.7' })
    expect(hook.received[0].signatureValid).toBe(true)

    const v2 = await put('votifier', { host: '127.0.0.1', port: v1.port, protocol: 'v2', newToken: true })
    const [service, token] = v2.votifier.configLine.split(': ')
    const listener = startVotifierReceiver({ tokens: { [service]: token } })
    stops.push(listener)
    await put('votifier', { host: '127.0.0.1', port: listener.port, protocol: 'v2', token })
    const test = await (await call(app, 'POST', `/api/v1/me/servers/${server.slug}/test`, { headers: { cookie } })).json()
    expect(test.results.map((r: any) => r.status)).toEqual(['succeeded', 'succeeded'])
    expect(listener.votes[0]).toMatchObject({ protocol: 'v2', serviceName: 'MyServerList', username: 'VotelistTest' })
  })
})

describeBackends('GET /api/v1/me/servers/{slug}/deliveries', (backend) => {
  test('one item per attempt, newest first, with paging', async () => {
    const { rt, app, cookie, server, votifier, webhook } = await setup(backend)
    await configure(rt, server.id, votifier.port, webhook.url())
    webhook.reply(503)
    const steve = await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    rt.clock.advance(60_000)
    await rt.queue.drain()
    const list = async (q = '') => (await call(app, 'GET', `/api/v1/me/servers/${server.slug}/deliveries${q}`, { headers: { cookie } })).json()
    const all = await list()
    expect(all.next).toBeNull()
    expect(all.attemptsPerSeries).toBe(8)
    // The two first attempts started together: which was recorded first is up to the race between them.
    const [newest, ...first] = all.deliveries.map((d: any) => [d.channel, d.attempt, d.status])
    expect(newest).toEqual(['webhook', 2, 'succeeded'])
    expect(first.sort()).toEqual([['votifier', 1, 'succeeded'], ['webhook', 1, 'failed']])
    const failed = all.deliveries.find((d: any) => d.status === 'failed')
    expect(failed).toEqual({
      id: expect.any(String), deliveryId: expect.any(String), voteId: steve.vote.id, pseudo: 'Steve', channel: 'webhook', test: false,
      attempt: 1, seriesAttempt: 1, rateLimited: false, redelivery: false, status: 'failed', error: 'the receiver answered HTTP 503', httpStatus: 503, durationMs: expect.any(Number),
      startedAt: new Date(steve.vote.createdAt).toISOString(), nextAttemptAt: new Date(steve.vote.createdAt + 60_000).toISOString(),
    })
    expect(all.deliveries[0].deliveryId).toBe(failed.deliveryId)

    const page1 = await list('?limit=2')
    expect(page1.deliveries.map((d: any) => d.id)).toEqual(all.deliveries.slice(0, 2).map((d: any) => d.id))
    expect(page1.next).toBe(all.deliveries[1].id)
    const page2 = await list(`?limit=2&before=${page1.next}`)
    expect(page2.deliveries.map((d: any) => d.id)).toEqual([all.deliveries[2].id])
    expect(page2.next).toBeNull()

    for (const q of ['?limit=0', '?limit=201', '?limit=abc', '?before=x', '?before=-1']) {
      const res = await call(app, 'GET', `/api/v1/me/servers/${server.slug}/deliveries${q}`, { headers: { cookie } })
      expect(res.status).toBe(400)
    }
    const other = await seedServer(rt, { name: 'Not Mine' }, 'other@example.com')
    const otherCookie = `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, other.owner.id)).token}`
    expect((await call(app, 'GET', `/api/v1/me/servers/${server.slug}/deliveries`, { headers: { cookie: otherCookie } })).status).toBe(403)
    expect((await (await call(app, 'GET', `/api/v1/me/servers/${other.server.slug}/deliveries`, { headers: { cookie: otherCookie } })).json()).deliveries).toEqual([])
  })
})

describeBackends('POST …/deliveries/{id}/redeliver', (backend) => {
  test('a gave_up delivery is sent again by hand: a new series, attempt numbers go on', async () => {
    const { rt, app, cookie, server, votifier } = await setup(backend)
    await rt.store.channels.putVotifier({ serverId: server.id, host: '127.0.0.1', port: votifier.port, protocol: 'v2', publicKey: null, token: 'old-token' }, rt.clock.now())
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    for (let i = 0; i < 7; i++) {
      rt.clock.advance(6 * 3600_000)
      await rt.queue.drain()
    }
    const [d] = (await deliveryRows(rt))
    expect(d).toMatchObject({ status: 'gave_up', attempts: 8 })
    expect((await attemptRows(rt))[0].error).toContain('wrong token')

    // The owner fixes the token, then redelivers.
    await rt.store.channels.putVotifier({ serverId: server.id, host: '127.0.0.1', port: votifier.port, protocol: 'v2', publicKey: null, token: 'tok' }, rt.clock.now())
    const res = await call(app, 'POST', `/api/v1/me/servers/${server.slug}/deliveries/${d.id}/redeliver`, { headers: { cookie } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true, delivery: { id: d.id, channel: 'votifier', status: 'pending', nextAttempt: 9, nextAttemptAt: new Date(rt.clock.now()).toISOString() } })
    await rt.queue.drain()
    expect(votifier.votes.map((v) => v.username)).toEqual(['Steve'])
    expect((await attemptRows(rt)).at(-1)).toMatchObject({ attempt: 9, status: 'succeeded' })
    expect((await deliveryRows(rt))[0]).toMatchObject({ status: 'succeeded', attempts: 9 })
  })

  test('a redeliver during a retry wait restarts the series; the older retry job ends without sending', async () => {
    const { rt, app, cookie, server, webhook } = await setup(backend)
    await rt.store.channels.putWebhook(server.id, webhook.url(), SECRET, rt.clock.now())
    webhook.reply(500, 500)
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    const [d] = (await deliveryRows(rt))
    expect((await call(app, 'POST', `/api/v1/me/servers/${server.slug}/deliveries/${d.id}/redeliver`, { headers: { cookie } })).status).toBe(200)
    await rt.queue.drain()
    expect((await attemptRows(rt)).map((a) => [a.attempt, a.status])).toEqual([[1, 'failed'], [2, 'failed']])
    // The new series' first retry is 1 minute after attempt 2; the old series' job is stale.
    rt.clock.advance(60_000)
    await rt.queue.drain()
    expect(webhook.received.length).toBe(3)
    expect((await attemptRows(rt)).map((a) => [a.attempt, a.status])).toEqual([[1, 'failed'], [2, 'failed'], [3, 'succeeded']])
    expect(await jobCount(rt)).toBe(0)
  })

  test('redeliver pressed twice before the new series begins: one new series, the vote is sent once more, not twice', async () => {
    const { rt, app, cookie, server, webhook } = await setup(backend)
    await rt.store.channels.putWebhook(server.id, webhook.url(), SECRET, rt.clock.now())
    webhook.reply(500)
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    const [d] = (await deliveryRows(rt))
    const redo = () => call(app, 'POST', `/api/v1/me/servers/${server.slug}/deliveries/${d.id}/redeliver`, { headers: { cookie } })
    expect((await redo()).status).toBe(200)
    const again = await redo()
    expect(again.status).toBe(409)
    expect((await again.json()).error).toEqual({ code: 'CONFLICT', message: 'this delivery is already queued to be sent again; wait for its attempt', reason: 'ALREADY_QUEUED' })
    await rt.queue.drain()
    expect(webhook.received.length).toBe(2)
    expect((await attemptRows(rt)).map((a) => [a.attempt, a.status])).toEqual([[1, 'failed'], [2, 'succeeded']])
    // The first series' retry job, due a minute after attempt 1, is stale and ends without sending.
    rt.clock.advance(60_000)
    await rt.queue.drain()
    expect(webhook.received.length).toBe(2)
    expect(await jobCount(rt)).toBe(0)
  })

  test('unknown id 404, another server\'s delivery 404, a test 409, a removed channel 409', async () => {
    const { rt, app, cookie, server, webhook } = await setup(backend)
    await rt.store.channels.putWebhook(server.id, webhook.url(), SECRET, rt.clock.now())
    const redo = (id: string) => call(app, 'POST', `/api/v1/me/servers/${server.slug}/deliveries/${id}/redeliver`, { headers: { cookie } })
    expect((await redo('nope')).status).toBe(404)
    await call(app, 'POST', `/api/v1/me/servers/${server.slug}/test`, { headers: { cookie } })
    const testDelivery = (await deliveryRows(rt))[0]
    const r = await redo(testDelivery.id)
    expect(r.status).toBe(409)
    const body = await r.json()
    expect(body.error.message).toContain('a test is never sent again')
    expect(body.error.reason).toBe('TEST_NOT_RESENT')

    const other = await seedServer(rt, { name: 'Elsewhere' })
    await rt.store.channels.putWebhook(other.server.id, webhook.url(), SECRET, rt.clock.now())
    await recordVote(rt, other.server, 'Alex', ['203.0.113.9'])
    const foreign = (await deliveryRows(rt)).find((d) => d.test === 0)!
    expect((await redo(foreign.id)).status).toBe(404)

    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    const mine = (await deliveryRows(rt)).filter((d) => d.test === 0).at(-1)!
    await rt.store.channels.deleteWebhook(server.id)
    const gone = await redo(mine.id)
    expect(gone.status).toBe(409)
    const goneBody = await gone.json()
    expect(goneBody.error.message).toContain('no webhook is configured any more')
    expect(goneBody.error.reason).toBe('CHANNEL_REMOVED')
  })
})
