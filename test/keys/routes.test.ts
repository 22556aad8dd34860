import { afterAll, expect, test } from 'bun:test'
import { hashKey } from '../../src/keys/service.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { cleanupTemp, keyRow, siteOn, testApp } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

const error = (code: string, message: unknown = expect.any(String), reason?: string) => ({ ok: false, error: { code, message, ...(reason && { reason }) } })

async function setup(backend: Backend) {
  const rt = await siteOn(backend)
  const app = await testApp(rt)
  await ownerSession(rt, 'admin@example.com')
  const alice = as(app, (await ownerSession(rt, 'alice@example.com')).headers)
  const bob = as(app, (await ownerSession(rt, 'bob@example.com')).headers)
  await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com' })
  await bob('POST', '/api/v1/me/servers', { name: 'Beta', host: 'beta.example.com' })
  return { rt, alice, bob }
}

describeBackends('API keys', (backend) => {
  test('POST answers 201 with the key shown once; only its SHA-256 is stored; several keys per server', async () => {
    const { rt, alice } = await setup(backend)
    const r = await json(await alice('POST', '/api/v1/me/servers/alpha/keys'))
    expect(r).toEqual({ status: 201, body: { ok: true, key: expect.stringMatching(/^vlk_[A-Za-z0-9_-]{32}$/), id: expect.any(String), prefix: expect.any(String) } })
    const { key, id, prefix } = r.body
    expect(prefix).toBe(key.slice(0, 8))
    const stored = (await rt.row('SELECT * FROM api_key WHERE id = ?', id))!
    expect(stored.hash).toBe(hashKey(key))
    expect(JSON.stringify(stored)).not.toContain(key)
    const named = await json(await alice('POST', '/api/v1/me/servers/alpha/keys', { name: 'lobby plugin' }))
    expect(named.status).toBe(201)
    expect(named.body.key).not.toBe(key)

    await rt.store.keys.touch(id, rt.clock.now() + 5000)
    const list = await json(await alice('GET', '/api/v1/me/servers/alpha/keys'))
    const created = new Date(rt.clock.now()).toISOString()
    expect(list).toEqual({
      status: 200,
      body: {
        ok: true,
        keys: [
          { id, prefix, name: '', createdAt: created, lastUsedAt: new Date(rt.clock.now() + 5000).toISOString() },
          { id: named.body.id, prefix: named.body.prefix, name: 'lobby plugin', createdAt: created, lastUsedAt: null },
        ],
        // The site's limit per key, which the dashboard states (limits.keyed_per_minute).
        perMinute: 600,
      },
    })
    expect(JSON.stringify(list.body)).not.toContain(key)
  })

  test('bad bodies are 400', async () => {
    const { alice } = await setup(backend)
    expect(await json(await alice('POST', '/api/v1/me/servers/alpha/keys', { name: 'x'.repeat(65) }))).toEqual({
      status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'name must be at most 64 characters long', field: 'name' } },
    })
    expect(await json(await alice('POST', '/api/v1/me/servers/alpha/keys', { scope: 'all' }))).toEqual({
      status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'scope is not a field of this request (known: name)', field: 'scope' } },
    })
  })

  test('DELETE revokes: the key is unlisted and marked revoked; unknown or already revoked ids are 404', async () => {
    const { rt, alice } = await setup(backend)
    const { body } = await json(await alice('POST', '/api/v1/me/servers/alpha/keys'))
    const keep = (await json(await alice('POST', '/api/v1/me/servers/alpha/keys'))).body
    expect(await json(await alice('DELETE', `/api/v1/me/servers/alpha/keys/${body.id}`))).toEqual({ status: 200, body: { ok: true } })
    expect((await keyRow(rt, body.key))!.revokedAt).toBe(rt.clock.now())
    expect((await json(await alice('GET', '/api/v1/me/servers/alpha/keys'))).body.keys.map((k: { id: string }) => k.id)).toEqual([keep.id])
    expect(await json(await alice('DELETE', `/api/v1/me/servers/alpha/keys/${body.id}`))).toEqual({ status: 404, body: error('NOT_FOUND') })
    expect(await json(await alice('DELETE', '/api/v1/me/servers/alpha/keys/no-such-id'))).toEqual({ status: 404, body: error('NOT_FOUND') })
  })

  test('another owner\'s server is 403 and its keys cannot be revoked through mine; unknown slug 404', async () => {
    const { rt, alice, bob } = await setup(backend)
    const bobs = (await json(await bob('POST', '/api/v1/me/servers/beta/keys'))).body
    expect(await json(await alice('GET', '/api/v1/me/servers/beta/keys'))).toEqual({ status: 403, body: error('FORBIDDEN', expect.any(String), 'NOT_YOURS') })
    expect(await json(await alice('POST', '/api/v1/me/servers/beta/keys'))).toEqual({ status: 403, body: error('FORBIDDEN', expect.any(String), 'NOT_YOURS') })
    expect(await json(await alice('DELETE', `/api/v1/me/servers/beta/keys/${bobs.id}`))).toEqual({ status: 403, body: error('FORBIDDEN', expect.any(String), 'NOT_YOURS') })
    expect(await json(await alice('DELETE', `/api/v1/me/servers/alpha/keys/${bobs.id}`))).toEqual({ status: 404, body: error('NOT_FOUND') })
    expect((await keyRow(rt, bobs.key))!.revokedAt).toBeNull()
    expect(await json(await alice('GET', '/api/v1/me/servers/ghost/keys'))).toEqual({ status: 404, body: error('NOT_FOUND') })
    expect(await json(await alice('POST', '/api/v1/me/servers/ghost/keys'))).toEqual({ status: 404, body: error('NOT_FOUND') })
  })
})
