import { afterAll, afterEach, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { VERSION } from '../../src/version.ts'
import { recordVote } from '../../src/votes/service.ts'
import { attemptRows, deliveryRows, deliveryRuntime, jobCount } from '../deliveries/setup.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { cleanupTemp } from '../helpers.ts'
import { startUnansweredPort } from '../net/unanswered-port.ts'
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts'

const SECRET = 'whsec_' + 'k'.repeat(43)
const receivers: WebhookReceiver[] = []
afterEach(() => { for (const r of receivers.splice(0)) r.stop() })
afterAll(cleanupTemp)

function receiver(tls?: { cert: string; key: string }) {
  const r = startWebhookReceiver(SECRET, { tls })
  receivers.push(r)
  return r
}

async function withWebhook(backend: Backend, url: string, input: Parameters<typeof deliveryRuntime>[1] = {}, net?: Parameters<typeof deliveryRuntime>[2]) {
  const ctx = await deliveryRuntime(backend, input, net)
  await ctx.rt.store.channels.putWebhook(ctx.server.id, url, SECRET, ctx.rt.clock.now())
  return ctx
}

describeBackends('webhook deliveries', (backend) => {
  test('a vote is POSTed with the contract body and headers, signed, to the checked address', async () => {
    const r = receiver()
    const asked: string[] = []
    const lookup = async (host: string) => { asked.push(host); return [{ address: '127.0.0.1', family: 4 }] }
    const { rt, server } = await withWebhook(backend, `http://hooks.example:${r.port}/votes?src=list`, {}, { lookup })
    const { vote } = await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect(asked).toEqual(['hooks.example'])
    expect(r.received.length).toBe(1)
    const [hook] = r.received
    const [delivery] = (await deliveryRows(rt))
    expect(hook.signatureValid).toBe(true)
    expect(hook.headers).toMatchObject({
      host: `hooks.example:${r.port}`,
      'content-type': 'application/json',
      'user-agent': `votelist/${VERSION}`,
      'x-tsm-event': 'vote',
      'x-tsm-delivery': delivery.id,
      'x-tsm-timestamp': String(Math.floor(rt.clock.now() / 1000)),
    })
    expect(hook.body).toBe(JSON.stringify({
      event: 'vote',
      server: { id: server.id, slug: server.slug, name: server.name },
      vote: { id: vote.id, pseudo: 'Steve', createdAt: new Date(vote.createdAt).toISOString() },
      monthlyVotes: 1,
    }))
    expect(delivery).toMatchObject({ channel: 'webhook', status: 'succeeded', attempts: 1, nextAttemptAt: null })
    expect(await attemptRows(rt)).toEqual([expect.objectContaining({ attempt: 1, status: 'succeeded', httpStatus: 204, error: null, startedAt: rt.clock.now() })])
    expect(await jobCount(rt)).toBe(0)
  })

  test('500, then success on the retry a minute later, with the same X-TSM-Delivery', async () => {
    const r = receiver()
    r.reply({ status: 500, body: 'database\ndown' })
    const { rt, server } = await withWebhook(backend, r.url())
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    const t0 = rt.clock.now()
    await rt.queue.drain()
    expect(await attemptRows(rt)).toEqual([expect.objectContaining({ attempt: 1, status: 'failed', httpStatus: 500, error: 'the receiver answered HTTP 500: "database down"', nextAttemptAt: t0 + 60_000 })])
    expect((await deliveryRows(rt))[0]).toMatchObject({ status: 'failed', nextAttemptAt: t0 + 60_000 })
    rt.clock.advance(59_999)
    expect(await rt.queue.drain()).toBe(0)
    rt.clock.advance(1)
    await rt.queue.drain()
    expect(r.received.length).toBe(2)
    expect(r.received.every((h) => h.signatureValid)).toBe(true)
    expect(r.received[1].headers['x-tsm-delivery']).toBe(r.received[0].headers['x-tsm-delivery'])
    expect(r.received[1].body).toBe(r.received[0].body)
    expect((await attemptRows(rt))[1]).toMatchObject({ attempt: 2, status: 'succeeded', httpStatus: 204, startedAt: t0 + 60_000, nextAttemptAt: null })
    expect((await deliveryRows(rt))[0]).toMatchObject({ status: 'succeeded', attempts: 2 })
    expect(await jobCount(rt)).toBe(0)
  })

  test('410 Gone stops the retries at once', async () => {
    const r = receiver()
    r.reply(410)
    const { rt, server } = await withWebhook(backend, r.url())
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect(await attemptRows(rt)).toEqual([expect.objectContaining({ status: 'gave_up', httpStatus: 410, nextAttemptAt: null })])
    expect((await attemptRows(rt))[0].error).toContain('410 Gone')
    expect((await deliveryRows(rt))[0].status).toBe('gave_up')
    expect(await jobCount(rt)).toBe(0)
  })

  test('no answer within the timeout is a failure, retried later', async () => {
    const r = receiver()
    r.reply({ status: 200, hold: new Promise(() => {}) })
    const { rt, server } = await withWebhook(backend, r.url(), { deliveries: { webhook_timeout: '1s' } })
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    const [a] = (await attemptRows(rt))
    expect(a).toMatchObject({ status: 'failed', httpStatus: null, error: `no answer from 127.0.0.1:${r.port} within 1 s (timed out)` })
    // It waited the whole timeout (a slow machine can only make it later).
    expect(a.durationMs).toBeGreaterThanOrEqual(900)
  })

  test('a resolver that never answers is a failure within the timeout, retried later', async () => {
    const r = receiver()
    const lookup = () => new Promise<never>(() => {})
    const { rt, server } = await withWebhook(backend, `http://hooks.example:${r.port}/votes`, { deliveries: { webhook_timeout: '1s' } }, { lookup })
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    const [a] = (await attemptRows(rt))
    expect(a).toMatchObject({ status: 'failed', httpStatus: null, error: 'DNS failure: no answer for hooks.example within 1 s (timed out): check the host name, or this machine\'s DNS resolver' })
    expect(a.nextAttemptAt).not.toBeNull()
    expect(a.durationMs).toBeGreaterThanOrEqual(900)
    expect(r.received.length).toBe(0)
  })

  test('a host that never completes the TCP handshake is the same timeout, retried later', async () => {
    const silent = await startUnansweredPort()
    try {
      const { rt, server } = await withWebhook(backend, `http://127.0.0.1:${silent.port}/hook`, { deliveries: { webhook_timeout: '1s' } })
      await recordVote(rt, server, 'Steve', ['203.0.113.7'])
      await rt.queue.drain()
      const [a] = (await attemptRows(rt))
      expect(a).toMatchObject({ status: 'failed', httpStatus: null, error: `no answer from 127.0.0.1:${silent.port} within 1 s (timed out)` })
      expect(a.nextAttemptAt).not.toBeNull()
      expect(a.durationMs).toBeGreaterThanOrEqual(900)
    } finally {
      silent.stop()
    }
  })

  test('a host whose first address refuses the connection: the next address gets the vote, in the same attempt', async () => {
    const r = receiver() // listens on 127.0.0.1 only
    const lookup = async () => [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }]
    const { rt, server } = await withWebhook(backend, `http://hooks.example:${r.port}/votes`, {}, { lookup })
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect(r.received.length).toBe(1)
    expect(r.received[0].headers.host).toBe(`hooks.example:${r.port}`)
    expect(await attemptRows(rt)).toEqual([expect.objectContaining({ attempt: 1, status: 'succeeded', httpStatus: 204, error: null })])
  })

  test('a redirect is not followed', async () => {
    const r = receiver()
    r.reply({ status: 302, headers: { location: r.url('/elsewhere') } })
    const { rt, server } = await withWebhook(backend, r.url())
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect(r.received.length).toBe(1)
    expect((await attemptRows(rt))[0]).toMatchObject({ status: 'failed', httpStatus: 302 })
    expect((await attemptRows(rt))[0].error).toContain(`a redirect to ${r.url('/elsewhere')}; redirects are not followed`)
  })

  test("a redirect to a very long Location (up to megabytes, at the receiver's choice) is named by its start: the attempt row stays small", async () => {
    const r = receiver()
    const location = r.url('/' + 'a'.repeat(32 << 10))
    r.reply({ status: 301, headers: { location } })
    const { rt, server } = await withWebhook(backend, r.url())
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect((await attemptRows(rt))[0]).toMatchObject({ status: 'failed', httpStatus: 301 })
    expect((await attemptRows(rt))[0].error).toBe(`the receiver answered 301, a redirect to ${location.slice(0, 200)}…; redirects are not followed: set the URL to the final address`)
  })

  test('a private target is refused at send time unless allowed', async () => {
    const r = receiver()
    // https: the URL itself passes this site's rules; only its address is refused.
    const { rt, server } = await withWebhook(backend, `https://127.0.0.1:${r.port}/hook`, { network: { allow_private_targets: false } })
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect(r.received.length).toBe(0)
    expect((await attemptRows(rt))[0]).toMatchObject({ status: 'failed', httpStatus: null })
    expect((await attemptRows(rt))[0].error).toBe('private target refused: 127.0.0.1 resolves to 127.0.0.1, a private or reserved address; votelist only connects to public addresses')
  })

  test('https to the checked address: the certificate is still verified against the host name', async () => {
    // Fixture: a self-signed certificate for "localhost" (test only), trusted through `ca`.
    const cert = readFileSync(join(import.meta.dir, 'localhost-cert.pem'), 'utf8')
    const key = readFileSync(join(import.meta.dir, 'localhost-key.pem'), 'utf8')
    const r = receiver({ cert, key })
    const lookup = async () => [{ address: '127.0.0.1', family: 4 }]
    const ok = await withWebhook(backend, r.url('/hook', 'localhost'), {}, { lookup, ca: cert })
    await recordVote(ok.rt, ok.server, 'Steve', ['203.0.113.7'])
    await ok.rt.queue.drain()
    expect((await attemptRows(ok.rt))[0]).toMatchObject({ status: 'succeeded', httpStatus: 204 })
    expect(r.received[0].headers.host).toBe(`localhost:${r.port}`)
    expect(r.received[0].signatureValid).toBe(true)

    const wrongName = await withWebhook(backend, r.url('/hook', 'other.example'), {}, { lookup, ca: cert })
    await recordVote(wrongName.rt, wrongName.server, 'Steve', ['203.0.113.7'])
    await wrongName.rt.queue.drain()
    expect((await attemptRows(wrongName.rt))[0].error).toBe('the TLS certificate of other.example was refused (ERR_TLS_CERT_ALTNAME_INVALID)')
    expect(r.received.length).toBe(1)
  })
})
