import { afterAll, afterEach, expect, test } from 'bun:test'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import { saveDiscord, saveWebhook } from '../../src/channels/service.ts'
import { redeliver } from '../../src/deliveries/service.ts'
import type { Lookup } from '../../src/net/guard.ts'
import { recoverInterruptedWork } from '../../src/site.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends } from '../backends.ts'
import { attemptRows, deliveryRows, deliveryRuntime, jobCount, runNextDelivery, useDeliveryHandler } from '../deliveries/setup.ts'
import { startDiscordReceiver, WEBHOOK_ID, WEBHOOK_TOKEN, type DiscordReceiver } from '../discord/discord-receiver.ts'
import { cleanupTemp, siteAgain, testApp, type BackendRuntime } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.ts'

// The admin turns network.allow_private_targets off (config change, restart) after owners saved
// targets that only that setting let through: a plain http:// webhook, a Discord URL that is not
// Discord's. At send time the save-time URL rules apply under the current config: the attempt
// fails, saying why, before anything is resolved or connected to, and is retried on the schedule,
// so that the vote still arrives once the admin turns the setting back on (or the owner fixes the
// URL and presses Redeliver).

const receivers: (WebhookReceiver | DiscordReceiver)[] = []
afterEach(() => { for (const r of receivers.splice(0)) r.stop() })
afterAll(cleanupTemp)

const HTTP_REFUSED = 'http:// targets are not allowed on this site (network.allow_private_targets is off): set an https:// URL, then Redeliver'
const DISCORD_REFUSED = 'this site only posts to Discord\'s own webhook URLs, https://discord.com/api/webhooks/<id>/<token> (network.allow_private_targets is off): set the URL the channel\'s Integrations → Webhooks → Copy Webhook URL gives, then Redeliver'

// The same site and database, restarted with `allow` as network.allow_private_targets. Its
// deliveries resolve every name to 127.0.0.1 (never leaving the machine), recording each name asked.
async function restarted(rt: BackendRuntime, allow: boolean, asked: string[] = []) {
  await rt.store.close()
  const next = await siteAgain({ ...rt, config: { ...rt.config, network: { ...rt.config.network, allow_private_targets: allow } } })
  await recoverInterruptedWork(next)
  const lookup: Lookup = async (host) => { asked.push(host); return [{ address: '127.0.0.1', family: 4 }] }
  useDeliveryHandler(next, { lookup })
  return next
}

async function ownerCalls(rt: BackendRuntime, email = 'owner@example.com') {
  const owner = (await rt.store.users.byEmail(email))!
  const headers = { cookie: `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, owner.id)).token}` }
  return as(await testApp(rt), headers)
}

describeBackends('targets saved under network.allow_private_targets, after the admin turns it off', (backend) => {
  test('an http:// webhook: refused at send time with the reason (Deliveries tab, Test), retried, and delivered once the setting is back on', async () => {
    const r = startWebhookReceiver('unused')
    receivers.push(r)
    const { rt: before, server } = await deliveryRuntime(backend)
    await saveWebhook(before, server.id, r.url())
    const asked: string[] = []
    const rt = await restarted(before, false, asked)

    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    const [first] = await attemptRows(rt)
    expect(first).toMatchObject({ attempt: 1, status: 'failed', error: HTTP_REFUSED, httpStatus: null })
    expect(first.nextAttemptAt).toBe(first.startedAt + 60_000) // the usual schedule: not dropped
    expect(await jobCount(rt)).toBe(1)

    const owner = await ownerCalls(rt)
    const tab = await json(await owner('GET', `/api/v1/me/servers/${server.slug}/deliveries`))
    expect(tab.body.deliveries.map((d: { error: string }) => d.error)).toEqual([HTTP_REFUSED])
    const tested = await json(await owner('POST', `/api/v1/me/servers/${server.slug}/test`, {}))
    expect(tested.body.results).toEqual([{ channel: 'webhook', status: 'failed', error: HTTP_REFUSED.replace('then Redeliver', 'then press Test again'), durationMs: expect.any(Number) }])
    expect(r.received.length).toBe(0)
    expect(asked).toEqual([]) // refused before any lookup or connection

    // The admin turns it back on: the next retry of the schedule delivers the vote.
    const after = await restarted(rt, true)
    await runNextDelivery(after)
    expect(r.received.map((m) => m.json.vote.pseudo)).toEqual(['Steve'])
    expect((await deliveryRows(after)).filter((d) => !d.test).map((d) => d.status)).toEqual(['succeeded'])
    expect(await jobCount(after)).toBe(0)
  })

  test('a Discord URL that is not Discord\'s: refused at send time with the reason; Redeliver after the owner sets a Discord URL sends it there', async () => {
    const r = startDiscordReceiver()
    receivers.push(r)
    const { rt: before, server } = await deliveryRuntime(backend, { deliveries: { retry_delays: ['1s'] } })
    // https, on a public name: only the Discord URL rule refuses it now.
    await saveDiscord(before, server.id, `https://hooks.example.com/api/webhooks/${WEBHOOK_ID}/${WEBHOOK_TOKEN}`)
    const asked: string[] = []
    const rt = await restarted(before, false, asked)

    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    await runNextDelivery(rt)
    expect((await attemptRows(rt)).map((a) => [a.attempt, a.status, a.error])).toEqual([[1, 'failed', DISCORD_REFUSED], [2, 'gave_up', DISCORD_REFUSED]])
    expect(asked).toEqual([])

    // The owner sets a URL this site takes (here: with the setting back on, the local stand-in for
    // Discord) and presses Redeliver: the kept vote goes out.
    const after = await restarted(rt, true)
    await saveDiscord(after, server.id, r.url())
    const [delivery] = await deliveryRows(after)
    await redeliver(after, server, delivery.id)
    await after.queue.drain()
    expect(r.received.map((m) => m.json.embeds[0].description)).toEqual(['**Steve** voted for **Emerald Valley**.'])
    expect((await deliveryRows(after))[0]).toMatchObject({ status: 'succeeded', attempts: 3 })
  })

  test('the server\'s settings say which saved URL the site no longer takes, and why; a URL that passes says nothing', async () => {
    const { rt: before, server } = await deliveryRuntime(backend)
    await saveWebhook(before, server.id, 'http://127.0.0.1:8123/hook')
    await saveDiscord(before, server.id, `https://hooks.example.com/api/webhooks/${WEBHOOK_ID}/${WEBHOOK_TOKEN}`)
    const owner = await ownerCalls(before)
    const shown = await json(await owner('GET', `/api/v1/me/servers/${server.slug}`))
    expect([shown.body.server.webhook, shown.body.server.discord]).toEqual([
      { url: 'http://127.0.0.1:8123/hook', secret: expect.any(String) }, { url: `https://hooks.example.com/api/webhooks/${WEBHOOK_ID}/${WEBHOOK_TOKEN}` },
    ])

    const rt = await restarted(before, false)
    const now = await ownerCalls(rt)
    const detail = await json(await now('GET', `/api/v1/me/servers/${server.slug}`))
    expect(detail.body.server.webhook).toEqual({ url: 'http://127.0.0.1:8123/hook', secret: expect.any(String), refused: HTTP_REFUSED.replace(', then Redeliver', '') })
    expect(detail.body.server.discord).toEqual({ url: `https://hooks.example.com/api/webhooks/${WEBHOOK_ID}/${WEBHOOK_TOKEN}`, refused: DISCORD_REFUSED.replace(', then Redeliver', '') })
    expect((await json(await now('GET', `/api/v1/me/servers/${server.slug}/webhook`))).body.webhook.refused).toBe(HTTP_REFUSED.replace(', then Redeliver', ''))
    expect((await json(await now('GET', `/api/v1/me/servers/${server.slug}/discord`))).body.discord.refused).toBe(DISCORD_REFUSED.replace(', then Redeliver', ''))
  })
})
