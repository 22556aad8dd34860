import { afterAll, afterEach, expect, test } from 'bun:test'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import type { ConfigInput } from '../../src/config/load.ts'
import { redeliver } from '../../src/deliveries/service.ts'
import { recoverInterruptedWork } from '../../src/site.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { attemptRows, deliveryRows, deliveryRuntime, jobCount, runNextDelivery, useDeliveryHandler } from '../deliveries/setup.ts'
import { call, cleanupTemp, siteAgain, testApp, type BackendRuntime } from '../helpers.ts'
import { startDiscordReceiver, type DiscordReceiver } from './discord-receiver.ts'

const receivers: DiscordReceiver[] = []
afterEach(() => { for (const r of receivers.splice(0)) r.stop() })
afterAll(cleanupTemp)

// A site whose server posts its votes to a local stand-in for Discord.
async function withDiscord(backend: Backend, input: ConfigInput = {}, url?: (r: DiscordReceiver) => string) {
  const r = startDiscordReceiver()
  receivers.push(r)
  const ctx = await deliveryRuntime(backend, input)
  await ctx.rt.store.channels.putDiscord(ctx.server.id, url ? url(r) : r.url(), ctx.rt.clock.now())
  return { r, ...ctx }
}

const HOUR = 3_600_000

const rateLimitedRows = (rt: BackendRuntime) =>
  rt.rows<{ attempt: number; status: string; rateLimited: number; nextAttemptAt: number | null }>(
    'SELECT attempt, status, rate_limited AS "rateLimited", next_attempt_at AS "nextAttemptAt" FROM delivery_attempt ORDER BY id')

const deliveryJobTimes = async (rt: BackendRuntime) =>
  (await rt.rows<{ at: number }>(`SELECT run_at AS at FROM job WHERE kind = 'delivery' ORDER BY id`)).map((j) => j.at)

describeBackends('votes to Discord', (backend) => {
  test('a vote posts one message with the player, the server and its votes this month', async () => {
    const { r, rt, server } = await withDiscord(backend)
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    rt.clock.advance(1000)
    const { vote } = await recordVote(rt, server, 'Cool_Guy', ['203.0.113.8'])
    await rt.queue.drain()
    expect(r.received.length).toBe(2)
    expect(r.received[1].json).toEqual({
      allowed_mentions: { parse: [] },
      embeds: [{
        title: 'New vote for Emerald Valley',
        url: `http://localhost:8080/serveur/${server.slug}`,
        description: '**Cool\\_Guy** voted for **Emerald Valley**.',
        color: 0x1f6f43,
        fields: [{ name: 'Player', value: 'Cool\\_Guy', inline: true }, { name: 'Votes this month', value: '2', inline: true }],
        footer: { text: 'My Server List' },
        timestamp: new Date(vote.createdAt).toISOString(),
      }],
    })
    expect((await deliveryRows(rt)).map((d) => [d.channel, d.status, d.attempts])).toEqual([['discord', 'succeeded', 1], ['discord', 'succeeded', 1]])
    expect((await attemptRows(rt)).map((a) => [a.status, a.httpStatus, a.error])).toEqual([['succeeded', 204, null], ['succeeded', 204, null]])
    expect(await jobCount(rt)).toBe(0)
  })

  // Like the badge, the message is in the site's language (site.language): the channel's readers
  // are the server's players, whose browsers the site never sees.
  test('on a French site the message is in French', async () => {
    const { r, rt, server } = await withDiscord(backend, { site: { language: 'fr' } })
    const { vote } = await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect(r.received[0].json.embeds).toEqual([{
      title: 'Nouveau vote pour Emerald Valley',
      url: `http://localhost:8080/serveur/${server.slug}`,
      description: '**Steve** a voté pour **Emerald Valley**.',
      color: 0x1f6f43,
      fields: [{ name: 'Joueur', value: 'Steve', inline: true }, { name: 'Votes ce mois-ci', value: '1', inline: true }],
      footer: { text: 'My Server List' },
      timestamp: new Date(vote.createdAt).toISOString(),
    }])
  })

  test('the Test button covers Discord, and the Deliveries tab filters by channel', async () => {
    const { r, rt, owner, server } = await withDiscord(backend)
    const app = await testApp(rt)
    const headers = { cookie: `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, owner.id)).token}` }
    const tested = await call(app, 'POST', `/api/v1/me/servers/${server.slug}/test`, { headers, body: {} })
    expect(await tested.json()).toEqual({ ok: true, results: [{ channel: 'discord', status: 'succeeded', error: null, durationMs: expect.any(Number) }] })
    expect(r.received[0].json.embeds[0]).toMatchObject({ title: 'Test vote for Emerald Valley', description: 'A test from the My Server List dashboard for **VotelistTest**: not a vote, nobody is rewarded.' })
    const list = async (q: string) => (await (await call(app, 'GET', `/api/v1/me/servers/${server.slug}/deliveries${q}`, { headers })).json()).deliveries
    expect((await list('?channel=discord')).map((d: { channel: string; test: boolean }) => [d.channel, d.test])).toEqual([['discord', true]])
    expect(await list('?channel=webhook')).toEqual([])
  })

  test('429 to the Test button: the owner is told to test again after the wait, not that a next attempt will come', async () => {
    const { r, rt, owner, server } = await withDiscord(backend)
    const app = await testApp(rt)
    const headers = { cookie: `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, owner.id)).token}` }
    r.reply({ status: 429, retryAfter: 2 })
    const tested = await call(app, 'POST', `/api/v1/me/servers/${server.slug}/test`, { headers, body: {} })
    const error = 'Discord answered 429: "You are being rate limited.": rate limited; a test is not sent again: press Test after 2 s'
    expect(await tested.json()).toEqual({ ok: true, results: [{ channel: 'discord', status: 'failed', error, durationMs: expect.any(Number) }] })
    expect((await attemptRows(rt)).map((a) => [a.status, a.error, a.nextAttemptAt])).toEqual([['failed', error, null]])
    expect(await jobCount(rt)).toBe(0)
  })

  test('while Discord asks to wait, the Test button sends nothing to that webhook and says when to try again', async () => {
    const { r, rt, owner, server } = await withDiscord(backend)
    const app = await testApp(rt)
    const headers = { cookie: `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, owner.id)).token}` }
    r.reply({ status: 429, retryAfter: 30 })
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect(r.received.length).toBe(1)
    rt.clock.advance(10_000)
    const tested = await call(app, 'POST', `/api/v1/me/servers/${server.slug}/test`, { headers, body: {} })
    const error = 'rate limited: Discord asked to wait before the next message to this webhook; a test is not sent again: press Test after 20 s'
    expect(await tested.json()).toEqual({ ok: true, results: [{ channel: 'discord', status: 'failed', error, durationMs: expect.any(Number) }] })
    expect(r.received.length).toBe(1)
    rt.clock.advance(20_000)
    await rt.queue.drain()
    const again = await call(app, 'POST', `/api/v1/me/servers/${server.slug}/test`, { headers, body: {} })
    expect((await again.json()).results[0]).toMatchObject({ channel: 'discord', status: 'succeeded', error: null })
    expect(r.received.map((m) => m.json.embeds[0].fields[0].value)).toEqual(['Steve', 'Steve', 'VotelistTest'])
  })

  test('429: the next attempt waits retry_after, is not counted, and holds the other messages to that webhook', async () => {
    const { r, rt, server } = await withDiscord(backend)
    r.reply({ status: 429, retryAfter: 1.5, header: '2' })
    const t0 = rt.clock.now()
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect(await rateLimitedRows(rt)).toEqual([{ attempt: 1, status: 'failed', rateLimited: 1, nextAttemptAt: t0 + 2000 }])
    expect((await attemptRows(rt))[0].error).toBe('Discord answered 429: "You are being rate limited.": rate limited, so the next attempt waits 2 s, as Discord asked')
    // Another vote meanwhile: its message waits for the same time, without an attempt.
    await recordVote(rt, server, 'Alex', ['203.0.113.8'])
    await rt.queue.drain()
    expect(r.received.length).toBe(1)
    expect((await attemptRows(rt)).length).toBe(1)
    expect(await deliveryJobTimes(rt)).toEqual([t0 + 2000, t0 + 2000])
    rt.clock.set(t0 + 2000)
    await rt.queue.drain()
    // Both messages were due at the same time and went out together, in either order.
    expect(r.received[0].json.embeds[0].fields[0].value).toBe('Steve')
    expect(r.received.slice(1).map((m) => m.json.embeds[0].fields[0].value).sort()).toEqual(['Alex', 'Steve'])
    expect((await deliveryRows(rt)).map((d) => d.status)).toEqual(['succeeded', 'succeeded'])
    // The Deliveries tab: the rate-limited try did not use up attempt 1 of 8, and the try after it
    // is not a redelivery although its attempt number went on.
    const items = (await rt.store.deliveries.attempts(server.id, Number.MAX_SAFE_INTEGER, 10))
      .sort((a, b) => a.pseudo.localeCompare(b.pseudo) || b.attempt - a.attempt)
    expect(items.map((a) => [a.pseudo, a.attempt, a.seriesAttempt, a.rateLimited, a.redelivery, a.status])).toEqual([
      ['Alex', 1, 1, false, false, 'succeeded'], ['Steve', 2, 1, false, false, 'succeeded'], ['Steve', 1, 1, true, false, 'failed'],
    ])
  })

  test('durable: a restart during Discord\'s wait keeps the message, which goes out once the wait is over', async () => {
    const { r, rt: first, server } = await withDiscord(backend)
    r.reply({ status: 429, retryAfter: 90 })
    const { clock } = first
    const t0 = clock.now()
    await recordVote(first, server, 'Steve', ['203.0.113.7'])
    await first.queue.drain()
    expect(r.received.length).toBe(1)
    await first.store.close()

    // A new process on the same database: nothing is sent before the wait Discord asked for.
    const second = await siteAgain(first)
    await recoverInterruptedWork(second)
    useDeliveryHandler(second)
    clock.set(t0 + 89_000)
    expect(await second.queue.drain()).toBe(0)
    expect(r.received.length).toBe(1)
    await runNextDelivery(second)
    expect(r.received.map((m) => m.json.embeds[0].description)).toEqual(['**Steve** voted for **Emerald Valley**.', '**Steve** voted for **Emerald Valley**.'])
    expect((await attemptRows(second)).map((a) => [a.attempt, a.status, a.httpStatus, a.startedAt - t0])).toEqual([[1, 'failed', 429, 0], [2, 'succeeded', 204, 90_000]])
    expect((await second.store.deliveries.attempts(server.id, Number.MAX_SAFE_INTEGER, 10)).map((a) => [a.channel, a.seriesAttempt, a.rateLimited, a.status]))
      .toEqual([['discord', 1, false, 'succeeded'], ['discord', 1, true, 'failed']])
    expect(await jobCount(second)).toBe(0)
  })

  test('a webhook that always answers 429: ten waits are free, then the schedule runs out as for any failure', async () => {
    const { r, rt, server } = await withDiscord(backend, { deliveries: { retry_delays: ['1s', '1s'] } })
    r.reply(...Array.from({ length: 20 }, () => ({ status: 429 as const, retryAfter: 2 })))
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    while (await jobCount(rt)) await runNextDelivery(rt)
    const rows = await rateLimitedRows(rt)
    expect(rows.map((a) => [a.attempt, a.status, a.rateLimited])).toEqual([
      ...Array.from({ length: 10 }, (_, i) => [i + 1, 'failed', 1]),
      [11, 'failed', 0], [12, 'failed', 0], [13, 'gave_up', 0],
    ])
    // A counted attempt still waits what Discord asked when it is longer than the schedule's delay.
    const started = (await attemptRows(rt)).map((a) => a.startedAt)
    expect(started.slice(1).map((t, i) => t - started[i])).toEqual(Array(12).fill(2000))
    expect((await rt.store.deliveries.attempts(server.id, Number.MAX_SAFE_INTEGER, 20)).map((a) => a.seriesAttempt).reverse())
      .toEqual([...Array(11).fill(1), 2, 3])
  })

  test('a wait longer than an hour is cut to an hour: a broken or hostile answer (Retry-After: 1e20) neither parks the message for ever nor breaks the Deliveries tab', async () => {
    const { r, rt, owner, server } = await withDiscord(backend)
    r.reply({ status: 429, retryAfter: 1e300, header: '1e20' })
    const t0 = rt.clock.now()
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect(await rateLimitedRows(rt)).toEqual([{ attempt: 1, status: 'failed', rateLimited: 1, nextAttemptAt: t0 + HOUR }])
    expect((await attemptRows(rt))[0].error).toBe('Discord answered 429: "You are being rate limited.": rate limited, so the next attempt waits 3600 s, as Discord asked (it asked for more than the longest wait votelist allows)')
    // Another vote meanwhile waits for the same hour, and the tab lists both.
    await recordVote(rt, server, 'Alex', ['203.0.113.8'])
    await rt.queue.drain()
    expect(await deliveryJobTimes(rt)).toEqual([t0 + HOUR, t0 + HOUR])
    const app = await testApp(rt)
    const headers = { cookie: `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, owner.id)).token}` }
    const tab = await call(app, 'GET', `/api/v1/me/servers/${server.slug}/deliveries`, { headers })
    expect(tab.status).toBe(200)
    expect((await tab.json()).deliveries.map((d: { nextAttemptAt: string | null }) => d.nextAttemptAt)).toEqual([new Date(t0 + HOUR).toISOString()])
    rt.clock.set(t0 + HOUR)
    await rt.queue.drain()
    expect((await deliveryRows(rt)).map((d) => d.status)).toEqual(['succeeded', 'succeeded'])
  })

  test('Unknown Webhook (404) gives up at once; after fixing the URL, Redeliver sends it', async () => {
    const { r, rt, server } = await withDiscord(backend, {}, (r) => r.url({ id: '1111111111111111111' }))
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect((await deliveryRows(rt))[0]).toMatchObject({ status: 'gave_up', attempts: 1 })
    expect((await attemptRows(rt))[0]).toMatchObject({ status: 'gave_up', httpStatus: 404, nextAttemptAt: null })
    expect((await attemptRows(rt))[0].error).toContain('the webhook no longer exists in Discord')
    await rt.store.channels.putDiscord(server.id, r.url(), rt.clock.now())
    await redeliver(rt, server, (await deliveryRows(rt))[0].id)
    await rt.queue.drain()
    expect((await deliveryRows(rt))[0]).toMatchObject({ status: 'succeeded', attempts: 2 })
    expect(r.received.length).toBe(1)
  })

  test('a spent bucket pauses the next message until Discord\'s reset; a removed webhook ends its deliveries', async () => {
    const { r, rt, server } = await withDiscord(backend)
    r.setRemaining(0)
    const t0 = rt.clock.now()
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    await recordVote(rt, server, 'Alex', ['203.0.113.8'])
    await rt.queue.drain()
    expect(r.received.length).toBe(1)
    expect(await deliveryJobTimes(rt)).toEqual([t0 + 2500])
    await rt.store.channels.deleteDiscord(server.id)
    rt.clock.set(t0 + 2500)
    await rt.queue.drain()
    expect((await attemptRows(rt)).map((a) => [a.status, a.error])).toEqual([
      ['succeeded', null], ['gave_up', 'the Discord webhook was removed from the server\'s settings'],
    ])
  })
})
