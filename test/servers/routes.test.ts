import { afterAll, expect, test } from 'bun:test'
import { createKey } from '../../src/keys/service.ts'
import { purgeDeleted } from '../../src/servers/purge.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { call, cleanupTemp, keyRow, siteOn, testApp } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

const error = (code: string, message: unknown = expect.any(String), field?: string, reason?: string) => ({ ok: false, error: { code, message, ...(field && { field }), ...(reason && { reason }) } })
const invalid = (message: unknown, field?: string) => ({ status: 400, body: error('INVALID_PARAMETER', message, field) })

// An admin (the first account), two owners, and the app.
async function setup(backend: Backend, config = {}) {
  const rt = await siteOn(backend, config)
  const app = await testApp(rt)
  const admin = await ownerSession(rt, 'admin@example.com')
  const alice = await ownerSession(rt, 'alice@example.com')
  const bob = await ownerSession(rt, 'bob@example.com')
  return { rt, app, admin: as(app, admin.headers), alice: as(app, alice.headers), bob: as(app, bob.headers), aliceUser: alice.user }
}

describeBackends('POST /api/v1/me/servers', (backend) => {
  test('201 with the server; the slug is made from the name, unique, and a given slug is kept', async () => {
    const { rt, alice, bob } = await setup(backend)
    const r = await json(await alice('POST', '/api/v1/me/servers', {
      name: 'Émeraude Valley!', host: 'Play.Example.com', port: 25570, edition: 'java', modes: ['survival', 'pvp'],
      version: '1.21.4', description: 'Friendly survival', website: 'https://example.com',
    }))
    const now = new Date(rt.clock.now()).toISOString()
    expect(r).toEqual({
      status: 201,
      body: {
        ok: true,
        server: {
          id: expect.any(String), slug: 'emeraude-valley', name: 'Émeraude Valley!', description: 'Friendly survival', edition: 'java',
          host: 'play.example.com', port: 25570, address: 'play.example.com:25570', version: '1.21.4', modes: ['pvp', 'survival'],
          website: 'https://example.com/', hidden: false, verified: false, verifiedAt: null, listed: true, unlistedReason: null,
          rank: 1, monthlyVotes: 0, totalVotes: 0,
          voteUrl: 'http://localhost:8080/serveur/emeraude-valley/voter', badgeUrl: 'http://localhost:8080/api/v1/servers/emeraude-valley/badge.svg',
          iconUrl: 'http://localhost:8080/api/v1/servers/emeraude-valley/icon.png', bannerUrl: null,
          createdAt: now, updatedAt: now,
        },
      },
    })
    const again = await json(await bob('POST', '/api/v1/me/servers', { name: 'Emeraude valley', host: 'mc.example.org' }))
    expect(again.status).toBe(201)
    expect(again.body.server).toMatchObject({ slug: 'emeraude-valley-2', port: null, address: 'mc.example.org', edition: 'java', modes: [], website: '' })
    const chosen = await json(await bob('POST', '/api/v1/me/servers', { name: 'Whatever', host: 'mc.example.org', slug: 'my-server', edition: 'bedrock' }))
    expect(chosen.body.server).toMatchObject({ slug: 'my-server', edition: 'bedrock' })
    expect(await json(await alice('POST', '/api/v1/me/servers', { name: 'Mine', host: 'a.example.com', slug: 'my-server' }))).toEqual({
      status: 409, body: error('CONFLICT', 'the slug "my-server" is taken', 'slug'),
    })
  })

  test('every bad field is a 400 naming it, in the message and in error.field', async () => {
    const { alice } = await setup(backend)
    const ok = { name: 'Valid', host: 'play.example.com' }
    const cases: [Record<string, unknown>, string, string | RegExp][] = [
      [{ host: 'play.example.com' }, 'name', 'name must be 1 to 64 characters long'],
      [{ ...ok, name: '' }, 'name', 'name must be 1 to 64 characters long'],
      [{ ...ok, name: 'x'.repeat(65) }, 'name', 'name must be 1 to 64 characters long'],
      [{ ...ok, name: '   ' }, 'name', 'name must be 1 to 64 characters long'],
      [{ ...ok, name: 'Nul\u0000Server' }, 'name', 'name must be plain text: it contains a control character (U+0000) at position 4'],
      [{ ...ok, name: 'Two\nlines' }, 'name', 'name must be plain text: it contains a control character (U+000A) at position 4'],
      [{ ...ok, name: 'Half \ud83d pair' }, 'name', 'name must be plain text: it contains an unpaired surrogate (U+D83D) at position 6'],
      [{ ...ok, version: '1.21\u001b[31m' }, 'version', 'version must be plain text: it contains a control character (U+001B) at position 5'],
      [{ ...ok, description: 'ok\r\nthen \udc00' }, 'description', 'description must be plain text: it contains an unpaired surrogate (U+DC00) at position 10'],
      [{ name: 'Valid' }, 'host', 'host must be a hostname or an IP address'],
      [{ ...ok, host: 'not a host' }, 'host', 'host must be a hostname or an IP address'],
      [{ ...ok, host: 'under_score.example.com' }, 'host', 'host must be a hostname or an IP address'],
      [{ ...ok, host: '127.0.0.1' }, 'host', 'host 127.0.0.1 is a loopback address: votelist only lists public servers (network.allow_private_targets is off)'],
      [{ ...ok, host: '192.168.1.20' }, 'host', 'host 192.168.1.20 is a private (RFC 1918) address: votelist only lists public servers (network.allow_private_targets is off)'],
      [{ ...ok, host: 'localhost' }, 'host', 'host localhost is this machine (loopback): votelist only lists public servers (network.allow_private_targets is off)'],
      [{ ...ok, port: 0 }, 'port', 'port must be an integer from 1 to 65535'],
      [{ ...ok, port: 65536 }, 'port', 'port must be an integer from 1 to 65535'],
      [{ ...ok, port: 25565.5 }, 'port', 'port must be an integer from 1 to 65535'],
      [{ ...ok, port: 'x' }, 'port', 'port must be an integer from 1 to 65535'],
      [{ ...ok, edition: 'pocket' }, 'edition', 'edition must be "java" or "bedrock"'],
      [{ ...ok, slug: 'Bad Slug' }, 'slug', /^slug must be 1 to 48 of a-z/],
      [{ ...ok, slug: '-dash' }, 'slug', /^slug must be 1 to 48 of a-z/],
      [{ ...ok, slug: 'dashboard' }, 'slug', /^slug must be 1 to 48 of a-z, 0-9 and "-", and not one of: .*dashboard/],
      [{ ...ok, modes: ['survival', 'knitting'] }, 'modes', /^modes: "knitting" is not a game mode of this site \(allowed: survival, creative/],
      [{ ...ok, modes: ['pvp', 'pvp'] }, 'modes', 'modes must be a list of at most 8 distinct game modes'],
      [{ ...ok, modes: 'pvp' }, 'modes', 'modes must be a list of at most 8 distinct game modes'],
      [{ ...ok, modes: ['pvp', 7] }, 'modes', /^modes/],
      [{ ...ok, version: 'x'.repeat(33) }, 'version', 'version must be at most 32 characters long'],
      [{ ...ok, description: 'x'.repeat(4001) }, 'description', 'description must be at most 4000 characters long'],
      [{ ...ok, website: 'ftp://example.com' }, 'website', 'website must be an http:// or https:// URL'],
      [{ ...ok, website: 'not a url' }, 'website', 'website must be an http:// or https:// URL'],
      [{ ...ok, owner: 'someone' }, 'owner', /^owner is not a field of this request/],
    ]
    for (const [body, field, message] of cases) {
      const r = await json(await alice('POST', '/api/v1/me/servers', body))
      expect({ body, status: r.status, code: r.body.error?.code, field: r.body.error?.field }).toEqual({ body, status: 400, code: 'INVALID_PARAMETER', field })
      expect(r.body.error.message).toMatch(message)
    }
    expect(await json(await alice('POST', '/api/v1/me/servers', '{"name":'))).toEqual(invalid('the request body could not be parsed'))
    expect((await json(await alice('GET', '/api/v1/me/servers'))).body.servers).toEqual([])
    // Lines, tabs and characters beyond the BMP (a surrogate pair) are text.
    const lined = await json(await alice('POST', '/api/v1/me/servers', { ...ok, name: 'Émeraude 😀', description: 'Line one\r\n\tLine two 😀' }))
    expect(lined.status).toBe(201)
    expect(lined.body.server).toMatchObject({ name: 'Émeraude 😀', description: 'Line one\r\n\tLine two 😀' })
  })

  test('private hosts are accepted where network.allow_private_targets = true', async () => {
    const { alice } = await setup(backend, { network: { allow_private_targets: true } })
    expect((await alice('POST', '/api/v1/me/servers', { name: 'Local', host: '127.0.0.1', port: 25565 })).status).toBe(201)
  })
})

describeBackends('my servers', (backend) => {
  test('GET lists only my own servers, with this month\'s rank and votes', async () => {
    const { rt, alice, bob } = await setup(backend)
    await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com' })
    await alice('POST', '/api/v1/me/servers', { name: 'Beta', host: 'beta.example.com' })
    await bob('POST', '/api/v1/me/servers', { name: 'Gamma', host: 'gamma.example.com' })
    const gamma = (await rt.store.servers.bySlug('gamma'))!
    for (const pseudo of ['Steve', 'Alex']) await recordVote(rt, gamma, pseudo, [null])
    await recordVote(rt, (await rt.store.servers.bySlug('beta'))!, 'Notch', [null])
    const mine = await json(await alice('GET', '/api/v1/me/servers'))
    expect(mine.status).toBe(200)
    expect(mine.body.servers.map((s: { slug: string; rank: number; monthlyVotes: number; totalVotes: number }) => [s.slug, s.rank, s.monthlyVotes, s.totalVotes]))
      .toEqual([['alpha', 3, 0, 0], ['beta', 2, 1, 1]])
    const his = await json(await bob('GET', '/api/v1/me/servers'))
    expect(his.body.servers.map((s: { slug: string; rank: number }) => [s.slug, s.rank])).toEqual([['gamma', 1]])
  })

  test('GET one: mine with its channels; another owner\'s is 403, an unknown slug 404; an admin sees any', async () => {
    const { alice, bob, admin } = await setup(backend)
    await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com' })
    const r = await json(await alice('GET', '/api/v1/me/servers/alpha'))
    expect(r.status).toBe(200)
    expect(r.body.server).toMatchObject({ slug: 'alpha', name: 'Alpha', webhook: null, votifier: null })
    expect(await json(await bob('GET', '/api/v1/me/servers/alpha'))).toEqual({ status: 403, body: error('FORBIDDEN', 'this server belongs to another account', undefined, 'NOT_YOURS') })
    expect(await json(await alice('GET', '/api/v1/me/servers/nope'))).toEqual({ status: 404, body: error('NOT_FOUND', 'no server with the slug "nope"') })
    expect((await json(await admin('GET', '/api/v1/me/servers/alpha'))).body.server.slug).toBe('alpha')
  })

  test('PATCH changes the given fields only; the slug cannot change; bad values are 400', async () => {
    const { rt, alice } = await setup(backend)
    await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com', port: 25570, modes: ['pvp'], description: 'old' })
    rt.clock.advance(1000)
    const r = await json(await alice('PATCH', '/api/v1/me/servers/alpha', { name: 'Alpha Two', port: null, modes: ['smp', 'creative'], website: 'http://alpha.example.com' }))
    expect(r.status).toBe(200)
    expect(r.body.server).toMatchObject({
      slug: 'alpha', name: 'Alpha Two', host: 'alpha.example.com', port: null, address: 'alpha.example.com', modes: ['creative', 'smp'],
      description: 'old', website: 'http://alpha.example.com/', updatedAt: new Date(rt.clock.now()).toISOString(),
    })
    expect(r.body.server.createdAt).not.toBe(r.body.server.updatedAt)
    expect((await json(await alice('GET', '/api/v1/me/servers/alpha'))).body.server.name).toBe('Alpha Two')
    expect(await json(await alice('PATCH', '/api/v1/me/servers/alpha', { slug: 'beta' }))).toEqual(
      invalid('slug cannot be changed: it stays what it was when the server was created', 'slug'))
    for (const [body, message] of [
      [{ port: 0 }, 'port must be an integer from 1 to 65535, or null for the default'],
      [{ host: '10.0.0.1' }, 'host 10.0.0.1 is a private (RFC 1918) address: votelist only lists public servers (network.allow_private_targets is off)'],
      [{ host: '0x7f000001' }, 'host 0x7f000001 is the loopback address 127.0.0.1: votelist only lists public servers (network.allow_private_targets is off)'],
      [{ edition: 'console' }, 'edition must be "java" or "bedrock"'],
      [{ name: '' }, 'name must be 1 to 64 characters long'],
      [{ website: 'javascript:alert(1)' }, 'website must be an http:// or https:// URL'],
      [{ modes: ['nope'] }, expect.stringMatching(/^modes: "nope" is not a game mode/)],
      [{ hidden: 'yes' }, 'hidden must be true or false'],
    ] as const) {
      expect(await json(await alice('PATCH', '/api/v1/me/servers/alpha', body))).toEqual(invalid(message, Object.keys(body)[0]))
    }
    expect(await rt.store.servers.bySlug('alpha')).toMatchObject({ name: 'Alpha Two', port: null, edition: 'java' })
  })

  test('PATCH and DELETE on another owner\'s server are 403, on an unknown slug 404, and change nothing', async () => {
    const { rt, alice, bob } = await setup(backend)
    await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com' })
    expect(await json(await bob('PATCH', '/api/v1/me/servers/alpha', { name: 'Mine now' }))).toEqual({ status: 403, body: error('FORBIDDEN', expect.any(String), undefined, 'NOT_YOURS') })
    expect(await json(await bob('DELETE', '/api/v1/me/servers/alpha'))).toEqual({ status: 403, body: error('FORBIDDEN', expect.any(String), undefined, 'NOT_YOURS') })
    expect(await json(await bob('PATCH', '/api/v1/me/servers/ghost', { name: 'x' }))).toEqual({ status: 404, body: error('NOT_FOUND') })
    expect(await json(await bob('DELETE', '/api/v1/me/servers/ghost'))).toEqual({ status: 404, body: error('NOT_FOUND') })
    expect((await rt.store.servers.bySlug('alpha'))!.name).toBe('Alpha')
  })

  test('DELETE removes the server with its votes and keys', async () => {
    const { rt, alice } = await setup(backend)
    await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com' })
    const server = (await rt.store.servers.bySlug('alpha'))!
    const { key } = await createKey(rt, server.id)
    await recordVote(rt, server, 'Steve', ['203.0.113.5'])
    expect(await json(await alice('DELETE', '/api/v1/me/servers/alpha'))).toEqual({ status: 200, body: { ok: true } })
    expect(await rt.store.servers.bySlug('alpha')).toBeNull()
    expect(await keyRow(rt, key)).toBeNull()
    // Its votes are removed by the purge (src/servers/purge.ts).
    await purgeDeleted(rt)
    expect(await rt.row('SELECT count(*) AS n FROM vote')).toEqual({ n: 0 })
    expect((await alice('GET', '/api/v1/me/servers/alpha')).status).toBe(404)
    // The slug is free again.
    expect((await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com' })).status).toBe(201)
  })
})

describeBackends('admin: servers', (backend) => {
  test('an admin lists every server with its owner, hides and shows any, deletes any; owners cannot hide', async () => {
    const { rt, alice, bob, admin, aliceUser } = await setup(backend)
    await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com' })
    await bob('POST', '/api/v1/me/servers', { name: 'Gamma', host: 'gamma.example.com' })
    await recordVote(rt, (await rt.store.servers.bySlug('gamma'))!, 'Steve', [null])

    expect(await json(await alice('PATCH', '/api/v1/me/servers/alpha', { hidden: true }))).toEqual({
      status: 403, body: error('FORBIDDEN', 'only an administrator can hide or show a server', undefined, 'ADMINS_ONLY'),
    })
    const hidden = await json(await admin('PATCH', '/api/v1/me/servers/alpha', { hidden: true }))
    expect(hidden.body.server).toMatchObject({ slug: 'alpha', hidden: true, rank: null })
    expect((await rt.store.ranking.page('2026-11', {}, 10, 0)).rows.map((r) => r.slug)).toEqual(['gamma'])
    // The owner still sees it, marked hidden.
    expect((await json(await alice('GET', '/api/v1/me/servers'))).body.servers[0]).toMatchObject({ slug: 'alpha', hidden: true })

    const all = await json(await admin('GET', '/api/v1/admin/servers'))
    expect(all.status).toBe(200)
    expect(all.body.servers.map((s: { slug: string; hidden: boolean; rank: number | null; owner: { email: string } }) => [s.slug, s.hidden, s.rank, s.owner.email]))
      .toEqual([['alpha', true, null, 'alice@example.com'], ['gamma', false, 1, 'bob@example.com']])
    expect(all.body.servers[0].owner.id).toBe(aliceUser.id)

    expect((await json(await admin('PATCH', '/api/v1/me/servers/alpha', { hidden: false }))).body.server).toMatchObject({ hidden: false, rank: 2 })
    expect((await admin('DELETE', '/api/v1/me/servers/gamma')).status).toBe(200)
    expect(await rt.store.servers.bySlug('gamma')).toBeNull()
    expect(await json(await alice('GET', '/api/v1/admin/servers'))).toEqual({ status: 403, body: error('FORBIDDEN', 'administrators only', undefined, 'ADMINS_ONLY') })
  })
})

describeBackends('guards', (backend) => {
  test('without a session every owner route is 401; a cross-site Origin on any state change is 403 and changes nothing', async () => {
    const { rt, app, alice } = await setup(backend)
    await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'alpha.example.com' })
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/v1/me/servers'], ['POST', '/api/v1/me/servers', { name: 'X', host: 'x.example.com' }],
      ['GET', '/api/v1/me/servers/alpha'], ['PATCH', '/api/v1/me/servers/alpha', { name: 'X' }], ['DELETE', '/api/v1/me/servers/alpha'],
      ['GET', '/api/v1/me/servers/alpha/keys'], ['POST', '/api/v1/me/servers/alpha/keys'], ['DELETE', '/api/v1/me/servers/alpha/keys/some-id'],
      ['GET', '/api/v1/me/servers/alpha/webhook'], ['PUT', '/api/v1/me/servers/alpha/webhook', { url: 'https://example.com/' }],
      ['POST', '/api/v1/me/servers/alpha/webhook/rotate'], ['DELETE', '/api/v1/me/servers/alpha/webhook'],
      ['GET', '/api/v1/me/servers/alpha/votifier'], ['PUT', '/api/v1/me/servers/alpha/votifier', { host: 'alpha.example.com', protocol: 'v2' }],
      ['DELETE', '/api/v1/me/servers/alpha/votifier'], ['GET', '/api/v1/admin/servers'], ['GET', '/api/v1/admin/users'], ['GET', '/api/v1/me'],
    ]
    for (const [method, path, body] of routes) {
      const r = await json(await call(app, method, path, { body }))
      expect({ method, path, ...r }).toEqual({ method, path, status: 401, body: error('UNAUTHENTICATED') })
    }
    const session = (await ownerSession(rt, 'carol@example.com')).headers
    const carol = as(app, session)
    await carol('POST', '/api/v1/me/servers', { name: 'Carol', host: 'carol.example.com' })
    for (const [method, path, body] of routes) {
      if (method === 'GET') continue
      const r = await json(await call(app, method, path.replace('alpha', 'carol'), { body, headers: { ...session, origin: 'https://evil.example' } }))
      expect({ method, path, ...r }).toEqual({ method, path, status: 403, body: error('FORBIDDEN', expect.stringContaining('cross-site'), undefined, 'CROSS_SITE') })
    }
    const server = (await rt.store.servers.bySlug('carol'))!
    expect(server.name).toBe('Carol')
    expect(await rt.store.keys.byServer(server.id)).toEqual([])
    expect(await rt.store.channels.webhook(server.id)).toBeNull()
    expect(await rt.store.channels.votifier(server.id)).toBeNull()
    expect((await rt.store.servers.byOwner(server.ownerId)).length).toBe(1)
  })
})
