import { afterAll, expect, test } from 'bun:test'
import type { ConfigInput } from '../../src/config/load.ts'
import type { Lookup } from '../../src/net/guard.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { cleanupTemp, siteOn, testApp, testLookup } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

// Discord's hosts resolve to a public address here (never connected to); other names as usual.
const lookup: Lookup = async (host) => (/(^|\.)discord(app)?\.com$/.test(host) ? [{ address: '93.184.216.34', family: 4 }] : testLookup(host))

async function setup(backend: Backend, config: ConfigInput = {}) {
  const rt = await siteOn(backend, config, undefined, { lookup })
  const app = await testApp(rt)
  const alice = as(app, (await ownerSession(rt, 'alice@example.com')).headers)
  const bob = as(app, (await ownerSession(rt, 'bob@example.com')).headers)
  await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com' })
  return { rt, alice, bob }
}

const ID = '1234567890123456789'
const TOKEN = 'aZ_9-kLmNoPqRsTuVwXyZ0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'
const SHAPE = 'url must be a Discord webhook URL, https://discord.com/api/webhooks/<id>/<token>, as the channel\'s Integrations → Webhooks → Copy Webhook URL gives it'
const refused = (message: string) => ({ status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message, field: 'url' } } })

describeBackends('Discord webhook settings', (backend) => {
  test('PUT takes the URLs Discord gives (its hosts, an API version, a thread); GET and the server detail show it; DELETE removes it', async () => {
    const { alice } = await setup(backend)
    expect(await json(await alice('GET', '/api/v1/me/servers/alpha/discord'))).toEqual({ status: 404, body: { ok: false, error: { code: 'NOT_FOUND', message: 'no Discord webhook is set for this server' } } })
    for (const [given, kept] of [
      [`https://discord.com/api/webhooks/${ID}/${TOKEN}`, `https://discord.com/api/webhooks/${ID}/${TOKEN}`],
      [`  https://DISCORD.com/api/webhooks/${ID}/${TOKEN}/  `, `https://discord.com/api/webhooks/${ID}/${TOKEN}`],
      [`https://discordapp.com/api/webhooks/${ID}/${TOKEN}`, `https://discordapp.com/api/webhooks/${ID}/${TOKEN}`],
      [`https://ptb.discord.com/api/v10/webhooks/${ID}/${TOKEN}`, `https://ptb.discord.com/api/v10/webhooks/${ID}/${TOKEN}`],
      [`https://canary.discordapp.com/api/webhooks/${ID}/${TOKEN}?thread_id=987654321098765432`, `https://canary.discordapp.com/api/webhooks/${ID}/${TOKEN}?thread_id=987654321098765432`],
    ]) {
      expect(await json(await alice('PUT', '/api/v1/me/servers/alpha/discord', { url: given }))).toEqual({ status: 200, body: { ok: true, discord: { url: kept } } })
    }
    const last = `https://canary.discordapp.com/api/webhooks/${ID}/${TOKEN}?thread_id=987654321098765432`
    expect(await json(await alice('GET', '/api/v1/me/servers/alpha/discord'))).toEqual({ status: 200, body: { ok: true, discord: { url: last } } })
    expect((await json(await alice('GET', '/api/v1/me/servers/alpha'))).body.server.discord).toEqual({ url: last })
    expect(await json(await alice('DELETE', '/api/v1/me/servers/alpha/discord'))).toEqual({ status: 200, body: { ok: true } })
    expect((await json(await alice('GET', '/api/v1/me/servers/alpha'))).body.server.discord).toBeNull()
    expect(await json(await alice('DELETE', '/api/v1/me/servers/alpha/discord'))).toEqual({ status: 200, body: { ok: true } })
  })

  test('anything else is refused with the reason: another host, http, a port, another path, a query, credentials, a fragment', async () => {
    const { alice } = await setup(backend)
    const put = async (url: unknown) => json(await alice('PUT', '/api/v1/me/servers/alpha/discord', { url }))
    for (const url of [
      `http://discord.com/api/webhooks/${ID}/${TOKEN}`,
      `https://discord.com:8443/api/webhooks/${ID}/${TOKEN}`,
      `https://discord.com.example.com/api/webhooks/${ID}/${TOKEN}`,
      `https://hooks.example.com/api/webhooks/${ID}/${TOKEN}`,
      `https://discord.com/api/webhooks/not-an-id/${TOKEN}`,
      `https://discord.com/api/webhooks/${ID}`,
      `https://discord.com/api/channels/${ID}/messages`,
      'not a url',
    ]) expect({ url, answer: await put(url) }).toEqual({ url, answer: refused(SHAPE) })
    expect(await put(`https://discord.com/api/webhooks/${ID}/${TOKEN}?wait=true`)).toEqual(refused('url: the only query Discord webhooks take here is thread_id=<id of a thread> (not "wait")'))
    expect(await put(`https://me:pw@discord.com/api/webhooks/${ID}/${TOKEN}`)).toEqual(refused('url must not contain a user name or password'))
    expect(await put(`https://discord.com/api/webhooks/${ID}/${TOKEN}#x`)).toEqual(refused('url must not contain a #fragment'))
    expect(await put('')).toEqual(refused('url must be a Discord webhook URL of at most 2000 characters'))
    expect((await json(await alice('PUT', '/api/v1/me/servers/alpha/discord', { url: `https://discord.com/api/webhooks/${ID}/${TOKEN}`, secret: 'x' }))).status).toBe(400)
  })

  test('with private targets allowed (a local install), any http(s) URL is taken, so a local receiver stands in for Discord', async () => {
    const { alice } = await setup(backend, { network: { allow_private_targets: true } })
    const url = 'http://127.0.0.1:8123/api/webhooks/1/x'
    expect(await json(await alice('PUT', '/api/v1/me/servers/alpha/discord', { url }))).toEqual({ status: 200, body: { ok: true, discord: { url } } })
    expect((await json(await alice('PUT', '/api/v1/me/servers/alpha/discord', { url: 'ftp://127.0.0.1/x' }))).status).toBe(400)
    expect((await json(await alice('PUT', '/api/v1/me/servers/alpha/discord', { url: 'http://nowhere.invalid/x' }))).body.error.message).toBe('url refused: nowhere.invalid could not be resolved')
  })

  test('only the owner (or an admin) sees or changes it', async () => {
    const { alice, bob } = await setup(backend)
    await alice('PUT', '/api/v1/me/servers/alpha/discord', { url: `https://discord.com/api/webhooks/${ID}/${TOKEN}` })
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expect((await json(await bob(method, '/api/v1/me/servers/alpha/discord', method === 'PUT' ? { url: `https://discord.com/api/webhooks/${ID}/${TOKEN}` } : undefined))).status).toBe(403)
    }
  })
})
