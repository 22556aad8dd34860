import { afterAll, describe, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { saveVotifier, saveWebhook } from '../../src/channels/service.ts'
import type { ConfigInput } from '../../src/config/load.ts'
import { ApiError } from '../../src/http/errors.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { cleanupTemp, siteOn, testApp } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

const error = (code: string, message: unknown = expect.any(String), reason?: string) => ({ ok: false, error: { code, message, ...(reason && { reason }) } })
const invalid = (message: unknown, field?: string) => ({ status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message, ...(field && { field }) } } })
const rsaKey = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits }).publicKey
const key2048 = rsaKey(2048)
const der2048 = key2048.export({ type: 'spki', format: 'der' }).toString('base64')

async function setup(backend: Backend, config: ConfigInput = { network: { allow_private_targets: true } }) {
  const rt = await siteOn(backend, config)
  const app = await testApp(rt)
  await ownerSession(rt, 'admin@example.com')
  const alice = as(app, (await ownerSession(rt, 'alice@example.com')).headers)
  const bob = as(app, (await ownerSession(rt, 'bob@example.com')).headers)
  await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com' })
  return { rt, alice, bob, server: (await rt.store.servers.bySlug('alpha'))! }
}

describeBackends('webhook settings', (backend) => {
  test('PUT sets the URL with a new whsec_ secret of 256 bits; the secret survives a URL change and is revealed by GET', async () => {
    const { rt, alice } = await setup(backend)
    const put = await json(await alice('PUT', '/api/v1/me/servers/alpha/webhook', { url: 'http://127.0.0.1:8123/hooks/vote?src=list' }))
    expect(put).toEqual({ status: 200, body: { ok: true, webhook: { url: 'http://127.0.0.1:8123/hooks/vote?src=list', secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/) } } })
    const { secret } = put.body.webhook
    expect(Buffer.from(secret.slice(6), 'base64url').length).toBe(32)
    const moved = await json(await alice('PUT', '/api/v1/me/servers/alpha/webhook', { url: 'http://[::1]:9000/v2' }))
    expect(moved.body.webhook).toEqual({ url: 'http://[::1]:9000/v2', secret })
    expect(await json(await alice('GET', '/api/v1/me/servers/alpha/webhook'))).toEqual({ status: 200, body: { ok: true, webhook: { url: 'http://[::1]:9000/v2', secret } } })
    expect((await json(await alice('GET', '/api/v1/me/servers/alpha'))).body.server.webhook).toEqual({ url: 'http://[::1]:9000/v2', secret })
    expect((await rt.store.channels.webhook((await rt.store.servers.bySlug('alpha'))!.id))!.secret).toBe(secret)
  })

  test('rotate replaces the secret and keeps the URL; DELETE removes the webhook; both answer for a missing one', async () => {
    const { alice } = await setup(backend)
    expect(await json(await alice('POST', '/api/v1/me/servers/alpha/webhook/rotate'))).toEqual({ status: 404, body: error('NOT_FOUND', 'no webhook is set for this server; PUT one first') })
    const { secret } = (await json(await alice('PUT', '/api/v1/me/servers/alpha/webhook', { url: 'http://localhost:8123/' }))).body.webhook
    const rotated = await json(await alice('POST', '/api/v1/me/servers/alpha/webhook/rotate'))
    expect(rotated.status).toBe(200)
    expect(rotated.body.webhook.url).toBe('http://localhost:8123/')
    expect(rotated.body.webhook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    expect(rotated.body.webhook.secret).not.toBe(secret)
    expect((await json(await alice('GET', '/api/v1/me/servers/alpha/webhook'))).body.webhook.secret).toBe(rotated.body.webhook.secret)
    expect(await json(await alice('DELETE', '/api/v1/me/servers/alpha/webhook'))).toEqual({ status: 200, body: { ok: true } })
    expect(await json(await alice('GET', '/api/v1/me/servers/alpha/webhook'))).toEqual({ status: 404, body: error('NOT_FOUND') })
    expect((await json(await alice('GET', '/api/v1/me/servers/alpha'))).body.server.webhook).toBeNull()
    expect(await json(await alice('DELETE', '/api/v1/me/servers/alpha/webhook'))).toEqual({ status: 200, body: { ok: true } })
    // A new webhook after a delete gets a new secret.
    const again = await json(await alice('PUT', '/api/v1/me/servers/alpha/webhook', { url: 'http://localhost:8123/' }))
    expect(again.body.webhook.secret).not.toBe(rotated.body.webhook.secret)
  })

  test('bad URLs are 400 naming the problem', async () => {
    const { alice } = await setup(backend)
    for (const [url, message] of [
      ['not a url', 'url must be an absolute https:// URL'],
      ['ftp://127.0.0.1/x', 'url must be an https:// URL'],
      ['https://user:pw@127.0.0.1/x', 'url must not contain a user name or password'],
      ['https://127.0.0.1/x#frag', 'url must not contain a #fragment'],
      [`https://127.0.0.1/${'x'.repeat(2000)}`, 'url must be an https:// URL of at most 2000 characters'],
      ['', 'url must be an https:// URL of at most 2000 characters'],
    ]) {
      expect(await json(await alice('PUT', '/api/v1/me/servers/alpha/webhook', { url }))).toEqual(invalid(message, 'url'))
    }
    expect(await json(await alice('PUT', '/api/v1/me/servers/alpha/webhook', {}))).toEqual(invalid('url must be an https:// URL of at most 2000 characters', 'url'))
    expect(await json(await alice('PUT', '/api/v1/me/servers/alpha/webhook', { url: 'https://127.0.0.1/', secret: 'mine' }))).toEqual(invalid('secret is not a field of this request (known: url)', 'secret'))
  })

  test('without allow_private_targets: http:// and private, loopback or link-local targets are refused at save time', async () => {
    const { rt, alice } = await setup(backend, {})
    for (const [url, message] of [
      ['http://127.0.0.1:8123/', 'url must use https:// (http:// is accepted only with network.allow_private_targets = true)'],
      ['https://127.0.0.1/', 'url refused: 127.0.0.1 resolves to 127.0.0.1, a private or reserved address'],
      ['https://10.1.2.3/', 'url refused: 10.1.2.3 resolves to 10.1.2.3, a private or reserved address'],
      ['https://169.254.169.254/latest/meta-data', 'url refused: 169.254.169.254 resolves to 169.254.169.254, a private or reserved address'],
      ['https://[::1]/', 'url refused: [::1] resolves to ::1, a private or reserved address'],
      ['https://100.64.0.1/', 'url refused: 100.64.0.1 resolves to 100.64.0.1, a private or reserved address'],
      ['https://localhost/', expect.stringMatching(/^url refused: localhost resolves to (127\.0\.0\.1|::1), a private or reserved address$/)],
    ] as const) {
      expect(await json(await alice('PUT', '/api/v1/me/servers/alpha/webhook', { url }))).toEqual(invalid(message, 'url'))
    }
    expect(await rt.store.channels.webhook((await rt.store.servers.bySlug('alpha'))!.id)).toBeNull()
  })

  test('a host name is resolved at save time: refused when any address is private, accepted when all are public', async () => {
    const { rt, server } = await setup(backend, {})
    const dns = (addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
    const refused = await saveWebhook({ ...rt, lookup: dns(['93.184.216.34', '10.0.0.7']) }, server.id, 'https://hooks.example.com/in').catch((e) => e)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused.message).toBe('url refused: hooks.example.com resolves to 10.0.0.7, a private or reserved address')
    const unresolved = await saveWebhook({ ...rt, lookup: async () => { throw new Error('ENOTFOUND') } }, server.id, 'https://nowhere.example/').catch((e) => e)
    expect(unresolved.message).toBe('url refused: nowhere.example could not be resolved')
    const saved = await saveWebhook({ ...rt, lookup: dns(['93.184.216.34', '2606:2800:220:1::1']) }, server.id, 'https://hooks.example.com/in')
    expect(saved.url).toBe('https://hooks.example.com/in')
    const vot = await saveVotifier({ ...rt, lookup: dns(['192.168.0.10']) }, server.id, { host: 'mc.example.com', protocol: 'v2' }).catch((e) => e)
    expect(vot.message).toBe('host refused: mc.example.com resolves to 192.168.0.10, a private or reserved address')
  })

  test('a resolver that never answers: the save is refused once a delivery\'s time limit has passed, with what to do', async () => {
    const { rt, server } = await setup(backend, { deliveries: { webhook_timeout: '1s', votifier_connect_timeout: '1s' } })
    const silent = () => new Promise<never>(() => {})
    const hook = await saveWebhook({ ...rt, lookup: silent }, server.id, 'https://hooks.example.com/in').catch((e) => e)
    expect(hook).toBeInstanceOf(ApiError)
    expect(hook).toMatchObject({ status: 400, field: 'url', message: 'url refused: hooks.example.com did not resolve within 1 s (timed out); try again, or check the host name' })
    const vot = await saveVotifier({ ...rt, lookup: silent }, server.id, { host: 'mc.example.com', protocol: 'v2' }).catch((e) => e)
    expect(vot).toMatchObject({ status: 400, field: 'host', message: 'host refused: mc.example.com did not resolve within 1 s (timed out); try again, or check the host name' })
    expect(await rt.store.channels.webhook(server.id)).toBeNull()
    expect(await rt.store.channels.votifier(server.id)).toBeNull()
  })

  test('another owner\'s server is 403, an unknown slug 404, and nothing is written', async () => {
    const { rt, alice, bob, server } = await setup(backend)
    await alice('PUT', '/api/v1/me/servers/alpha/webhook', { url: 'http://127.0.0.1:1/' })
    for (const [method, path, body] of [
      ['GET', '/webhook'], ['PUT', '/webhook', { url: 'http://127.0.0.1:2/' }], ['POST', '/webhook/rotate'], ['DELETE', '/webhook'],
      ['GET', '/votifier'], ['PUT', '/votifier', { host: '127.0.0.1', protocol: 'v2' }], ['DELETE', '/votifier'],
    ] as [string, string, unknown?][]) {
      expect(await json(await bob(method, `/api/v1/me/servers/alpha${path}`, body))).toEqual({ status: 403, body: error('FORBIDDEN', expect.any(String), 'NOT_YOURS') })
      expect(await json(await bob(method, `/api/v1/me/servers/ghost${path}`, body))).toEqual({ status: 404, body: error('NOT_FOUND') })
    }
    expect((await rt.store.channels.webhook(server.id))!.url).toBe('http://127.0.0.1:1/')
    expect(await rt.store.channels.votifier(server.id)).toBeNull()
  })
})

describeBackends('Votifier settings', (backend) => {
  test('v2 without a token: one is generated, with the exact line for the listener; kept on later saves, renewed on request', async () => {
    const { rt, alice } = await setup(backend, { network: { allow_private_targets: true }, site: { service_name: 'EmeraldList' } })
    const r = await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v2' }))
    expect(r).toEqual({
      status: 200,
      body: { ok: true, votifier: { host: '127.0.0.1', port: 8192, protocol: 'v2', token: expect.stringMatching(/^[0-9a-v]{32}$/), configLine: expect.any(String) } },
    })
    const { token } = r.body.votifier
    expect(r.body.votifier.configLine).toBe(`EmeraldList: ${token}`)
    const moved = await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: 'localhost', port: 8193, protocol: 'v2' }))
    expect(moved.body.votifier).toEqual({ host: 'localhost', port: 8193, protocol: 'v2', token, configLine: `EmeraldList: ${token}` })
    const renewed = await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: 'localhost', port: 8193, protocol: 'v2', newToken: true }))
    expect(renewed.body.votifier.token).toMatch(/^[0-9a-v]{32}$/)
    expect(renewed.body.votifier.token).not.toBe(token)
    expect(await json(await alice('GET', '/api/v1/me/servers/alpha/votifier'))).toEqual({ status: 200, body: renewed.body })
    expect((await json(await alice('GET', '/api/v1/me/servers/alpha'))).body.server.votifier).toEqual(renewed.body.votifier)
    expect(await rt.store.channels.votifier((await rt.store.servers.bySlug('alpha'))!.id)).toMatchObject({ protocol: 'v2', token: renewed.body.votifier.token, publicKey: null })
  })

  test('v2 with a pasted token keeps it as given; bad tokens are 400', async () => {
    const { alice } = await setup(backend)
    const pasted = 'k3j4h5g6f7d8s9a0q1w2e3r4t5'
    const r = await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', port: 25599, protocol: 'v2', token: pasted }))
    expect(r.body.votifier).toEqual({ host: '127.0.0.1', port: 25599, protocol: 'v2', token: pasted, configLine: `MyServerList: ${pasted}` })
    const tokenRule = 'token must be 16 to 128 of A-Z, a-z, 0-9 and _ . + / = -'
    for (const token of ['short', 'has spaces in the token', 'colon:breaks-the-yaml-line', 'x'.repeat(129), '#comment-out-the-rest']) {
      expect(await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v2', token }))).toEqual(invalid(tokenRule, 'token'))
    }
    expect(await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v2', token: pasted, newToken: true })))
      .toEqual(invalid('give either token or newToken, not both'))
    expect(await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v2', publicKey: der2048 })))
      .toEqual(invalid('publicKey is for protocol v1; v2 uses a token', 'publicKey'))
  })

  test('v1 takes the listener\'s 2048-bit public key (base64 X.509 or PEM); other sizes and garbage are a clear 400', async () => {
    const { rt, alice } = await setup(backend)
    const r = await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v1', publicKey: der2048.replace(/(.{64})/g, '$1\n') }))
    expect(r).toEqual({ status: 200, body: { ok: true, votifier: { host: '127.0.0.1', port: 8192, protocol: 'v1', publicKey: der2048 } } })
    const pem = key2048.export({ type: 'spki', format: 'pem' }).toString()
    expect((await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v1', publicKey: pem }))).body.votifier.publicKey).toBe(der2048)
    expect(await rt.store.channels.votifier((await rt.store.servers.bySlug('alpha'))!.id)).toMatchObject({ protocol: 'v1', publicKey: der2048, token: null })

    const der1024 = rsaKey(1024).export({ type: 'spki', format: 'der' }).toString('base64')
    const der4096 = rsaKey(4096).export({ type: 'spki', format: 'der' }).toString('base64')
    const put = (body: Record<string, unknown>) => alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v1', ...body })
    expect(await json(await put({ publicKey: der1024 }))).toEqual(invalid('publicKey must be a 2048-bit RSA key (this one has 1024 bits): Votifier reads exactly 256 bytes', 'publicKey'))
    expect(await json(await put({ publicKey: der4096 }))).toEqual(invalid('publicKey must be a 2048-bit RSA key (this one has 4096 bits): Votifier reads exactly 256 bytes', 'publicKey'))
    const garbage = 'publicKey must be the contents of the listener\'s rsa/public.key (base64 X.509) or a PEM public key'
    expect(await json(await put({ publicKey: 'hello world' }))).toEqual(invalid(garbage, 'publicKey'))
    expect(await json(await put({ publicKey: Buffer.from('not a key at all').toString('base64') }))).toEqual(invalid(garbage, 'publicKey'))
    expect(await json(await put({}))).toEqual(invalid('publicKey is required for protocol v1: paste the listener\'s rsa/public.key', 'publicKey'))
    expect(await json(await put({ publicKey: der2048, token: 'abcdefghijklmnop' }))).toEqual(invalid('token and newToken are for protocol v2; v1 uses publicKey', 'token'))
    // Nothing of the refused saves was written.
    expect((await rt.store.channels.votifier((await rt.store.servers.bySlug('alpha'))!.id))!.publicKey).toBe(der2048)
  })

  test('switching v1 → v2 generates a token; bad host, port and protocol are 400', async () => {
    const { alice } = await setup(backend)
    await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v1', publicKey: der2048 })
    const v2 = await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v2' }))
    expect(v2.body.votifier.token).toMatch(/^[0-9a-v]{32}$/)
    expect(v2.body.votifier.publicKey).toBeUndefined()
    const put = (body: Record<string, unknown>) => alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '127.0.0.1', protocol: 'v2', ...body })
    expect(await json(await put({ host: 'bad host!' }))).toEqual(invalid('host must be a hostname or an IP address', 'host'))
    expect(await json(await put({ host: '' }))).toEqual(invalid('host must be a hostname or an IP address', 'host'))
    expect(await json(await put({ port: 0 }))).toEqual(invalid('port must be an integer from 1 to 65535', 'port'))
    expect(await json(await put({ port: 70000 }))).toEqual(invalid('port must be an integer from 1 to 65535', 'port'))
    expect(await json(await put({ protocol: 'v3' }))).toEqual(invalid('protocol must be "v1" or "v2"', 'protocol'))
    expect(await json(await put({ password: 'x' }))).toEqual(invalid(expect.stringMatching(/^password is not a field of this request/), 'password'))
  })

  test('a numeric IPv4 form of the Votifier host is saved as its dotted quad, and checked as that address', async () => {
    const { alice } = await setup(backend)
    const put = await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: '0x7f.1', protocol: 'v2' }))
    expect(put.body.votifier.host).toBe('127.0.0.1')
    const { alice: strict } = await setup(backend, {})
    expect(await json(await strict('PUT', '/api/v1/me/servers/alpha/votifier', { host: '2130706433', protocol: 'v2' })))
      .toEqual(invalid('host refused: 127.0.0.1 resolves to 127.0.0.1, a private or reserved address', 'host'))
    expect(await json(await strict('PUT', '/api/v1/me/servers/alpha/votifier', { host: '1.2.3.4.5', protocol: 'v2' })))
      .toEqual(invalid('host 1.2.3.4.5 is not a valid IPv4 address (and a host name cannot end in a number)', 'host'))
  })

  test('without allow_private_targets a private or loopback Votifier host is refused; DELETE removes the target', async () => {
    const { rt, alice } = await setup(backend, {})
    for (const [host, address] of [['127.0.0.1', '127.0.0.1'], ['192.168.1.50', '192.168.1.50'], ['::1', '::1'], ['[fe80::1]', 'fe80::1']]) {
      expect(await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host, protocol: 'v2' })))
        .toEqual(invalid(`host refused: ${host.replace(/^\[(.*)\]$/, '$1')} resolves to ${address}, a private or reserved address`, 'host'))
    }
    expect(await json(await alice('PUT', '/api/v1/me/servers/alpha/votifier', { host: 'localhost', protocol: 'v2' })))
      .toEqual(invalid(expect.stringMatching(/^host refused: localhost resolves to/), 'host'))
    const id = (await rt.store.servers.bySlug('alpha'))!.id
    expect(await rt.store.channels.votifier(id)).toBeNull()
    // Set one through the service with a public address, then remove it over HTTP.
    await saveVotifier({ ...rt, lookup: async () => [{ address: '93.184.216.34', family: 4 }] }, id, { host: 'mc.example.com', protocol: 'v2' })
    expect((await json(await alice('GET', '/api/v1/me/servers/alpha/votifier'))).body.votifier.host).toBe('mc.example.com')
    expect(await json(await alice('DELETE', '/api/v1/me/servers/alpha/votifier'))).toEqual({ status: 200, body: { ok: true } })
    expect(await json(await alice('GET', '/api/v1/me/servers/alpha/votifier'))).toEqual({ status: 404, body: error('NOT_FOUND', 'no Votifier target is set for this server') })
    expect(await rt.store.channels.votifier(id)).toBeNull()
  })
})
