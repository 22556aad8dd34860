import { afterAll, expect, test } from 'bun:test'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends } from '../backends.ts'
import { useDeliveryHandler } from '../deliveries/setup.ts'
import { png } from '../media/images.ts'
import { call, cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'
import { as, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

// An administrator may manage any account's server through the owner routes. Minting an API key
// (which can claim the server's votes) or moving its Votifier, webhook or Discord target (where
// the rewards go) on another account's server is written to the audit log, as the server's other
// edits are; the owner's own changes are not.
interface Entry { action: string; actor: { email: string }; target: { type: string; id: string; label: string }; detail: Record<string, unknown> }

// A site with an administrator and another account's server; the audit log's entries, oldest first.
async function foreignServer(backend: Parameters<typeof siteOn>[0], config: Parameters<typeof siteOn>[1] = {}) {
  const rt = await siteOn(backend, config)
  const app = await testApp(rt)
  const admin = await ownerSession(rt, 'admin@example.com')
  const { owner, server } = await seedServer(rt, { name: 'Emerald Valley' })
  const ownerCookie = `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, owner.id)).token}`
  const entries = async () => ((await (await call(app, 'GET', '/api/v1/admin/audit?limit=200', { headers: admin.headers })).json()) as { entries: Entry[] }).entries.reverse()
  return { rt, app, admin, server, ownerCookie, entries, asAdmin: as(app, admin.headers), asOwner: as(app, { cookie: ownerCookie }), base: `/api/v1/me/servers/${server.slug}` }
}

describeBackends('an administrator\'s changes to the keys and channels of another account\'s server', (backend) => {
  test('are each in the audit log; the owner\'s own are not', async () => {
    const { server, entries, asAdmin, asOwner, base } = await foreignServer(backend, { network: { allow_private_targets: true } })

    expect((await asOwner('POST', `${base}/keys`, { name: 'mine' })).status).toBe(201)
    expect((await asOwner('PUT', `${base}/webhook`, { url: 'http://127.0.0.1:8123/hook' })).status).toBe(200)
    expect(await entries()).toEqual([])

    const key = await (await asAdmin('POST', `${base}/keys`, { name: 'admin made' })).json()
    expect((await asAdmin('DELETE', `${base}/keys/${key.id}`)).status).toBe(200)
    expect((await asAdmin('PUT', `${base}/webhook`, { url: 'http://127.0.0.1:9999/elsewhere' })).status).toBe(200)
    expect((await asAdmin('POST', `${base}/webhook/rotate`)).status).toBe(200)
    expect((await asAdmin('DELETE', `${base}/webhook`)).status).toBe(200)
    expect((await asAdmin('PUT', `${base}/votifier`, { host: '127.0.0.1', port: 8192, protocol: 'v2' })).status).toBe(200)
    expect((await asAdmin('DELETE', `${base}/votifier`)).status).toBe(200)
    expect((await asAdmin('PUT', `${base}/discord`, { url: 'http://127.0.0.1:9998/api/webhooks/1/x' })).status).toBe(200)
    expect((await asAdmin('DELETE', `${base}/discord`)).status).toBe(200)

    const found = await entries()
    for (const e of found) {
      expect(e.actor.email).toBe('admin@example.com')
      expect(e.target).toEqual({ type: 'server', id: server.id, label: 'Emerald Valley' })
    }
    expect(found.map((e) => [e.action, e.detail])).toEqual([
      ['server.key_create', { prefix: key.prefix }],
      ['server.key_revoke', { prefix: key.prefix }],
      ['server.channel_set', { channel: 'webhook' }],
      ['server.channel_rotate', { channel: 'webhook' }],
      ['server.channel_remove', { channel: 'webhook' }],
      ['server.channel_set', { channel: 'votifier' }],
      ['server.channel_remove', { channel: 'votifier' }],
      ['server.channel_set', { channel: 'discord' }],
      ['server.channel_remove', { channel: 'discord' }],
    ])
  })

  test('a test vote or a delivery sent again by an administrator on another account\'s server is in the audit log; the owner\'s are not', async () => {
    const { rt, server, asAdmin, asOwner, base, ...site } = await foreignServer(backend, { network: { allow_private_targets: true } })
    const entries = async () => (await site.entries()).map((e) => [e.action, e.target.id, e.detail])
    // A webhook nothing listens on: every attempt fails at once, which is all this needs.
    expect((await asOwner('PUT', `${base}/webhook`, { url: 'http://127.0.0.1:9/hook' })).status).toBe(200)
    useDeliveryHandler(rt)
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect((await asOwner('POST', `${base}/test`, {})).status).toBe(200)
    expect(await entries()).toEqual([])

    expect((await asAdmin('POST', `${base}/test`, { pseudo: 'Alex' })).status).toBe(200)
    const list = await (await asAdmin('GET', `${base}/deliveries?limit=200`)).json()
    const vote = list.deliveries.find((d: { test: boolean; status: string }) => !d.test && d.status !== 'pending')
    expect(vote).toBeDefined()
    expect((await asAdmin('POST', `${base}/deliveries/${vote.deliveryId}/redeliver`)).status).toBe(200)
    expect(await entries()).toEqual([
      ['server.test_vote', server.id, { pseudo: 'Alex' }],
      ['server.redeliver', server.id, { channel: 'webhook', pseudo: 'Steve' }],
    ])
  })

  test('a banner an administrator uploads or removes on another account\'s server is an audited edit; the owner\'s is not', async () => {
    const { app, admin, server, ownerCookie, ...site } = await foreignServer(backend)
    const entries = async () => (await site.entries()).map((e) => [e.action, e.detail])
    const banner = png(468, 60)
    const put = (cookie: string) => app.handle(new Request(`http://localhost/api/v1/me/servers/${server.slug}/banner`, {
      method: 'PUT', headers: { cookie, 'content-type': 'image/png' }, body: banner as BodyInit,
    }))
    expect((await put(ownerCookie)).status).toBe(200)
    expect(await entries()).toEqual([])
    expect((await put(admin.headers.cookie)).status).toBe(200)
    expect((await call(app, 'DELETE', `/api/v1/me/servers/${server.slug}/banner`, { headers: admin.headers })).status).toBe(200)
    expect(await entries()).toEqual([['server.update', { fields: 'banner' }], ['server.update', { fields: 'banner' }]])
  })
})
