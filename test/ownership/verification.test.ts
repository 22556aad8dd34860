import { afterAll, afterEach, expect, test } from 'bun:test'
import { describeBackends, type Backend } from '../backends.ts'
import { call, cleanupTemp, siteOn, testApp } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'
import { refusedPort } from '../stats/peers.ts'
import { bedrockMotdServer, javaMotdServer, type MotdServer } from './minecraft-servers.ts'

afterAll(cleanupTemp)
const running: MotdServer[] = []
afterEach(async () => { for (const s of running.splice(0)) await s.close() })

const started = async (p: Promise<MotdServer>) => {
  const s = await p
  running.push(s)
  return s
}

// The site on loopback (private targets allowed, so it may ping 127.0.0.1), with an owner.
async function site(backend: Backend, config: Record<string, Record<string, unknown>> = {}) {
  const rt = await siteOn(backend, { ...config, network: { allow_private_targets: true } })
  const app = await testApp(rt)
  const alice = await ownerSession(rt, 'alice@example.com')
  return { rt, app, alice: as(app, alice.headers) }
}

const MARK = '<span class="verified" title="The owner proved they run this server"><span aria-hidden="true">✓</span> Verified</span>'
// Whether the ranking, the server page and the vote page show the verified mark by the name.
const marks = async (app: Parameters<typeof call>[0], slug: string, name: string) => ({
  ranking: (await (await call(app, 'GET', '/')).text()).includes(`${name}</a> ${MARK}`),
  page: (await (await call(app, 'GET', `/serveur/${slug}`)).text()).includes(MARK),
  votePage: (await (await call(app, 'GET', `/serveur/${slug}/voter`)).text()).includes(MARK),
})

const publicStatuses = async (app: Parameters<typeof call>[0], slug: string) => ({
  page: (await call(app, 'GET', `/serveur/${slug}`)).status,
  votePage: (await call(app, 'GET', `/serveur/${slug}/voter`)).status,
  record: (await call(app, 'GET', `/api/v1/servers/${slug}`)).status,
  vote: (await call(app, 'POST', `/serveur/${slug}/voter`, { body: { pseudo: 'Steve' }, headers: { accept: 'application/json' } })).status,
  ranked: (await (await call(app, 'GET', '/')).text()).includes(`href="/serveur/${slug}"`),
})

describeBackends('proving ownership through the MOTD', (backend) => {
  test('a Java server (minecraft-protocol): off the public site until the token is in its MOTD; stays verified without it; a new address resets it', async () => {
    const { app, alice } = await site(backend, { listing: { require_verification: true } })
    const mc = await started(javaMotdServer('A Minecraft Server'))
    const created = await json(await alice('POST', '/api/v1/me/servers', { name: 'Emerald Valley', host: '127.0.0.1', port: mc.port }))
    expect(created.body.server).toMatchObject({ verified: false, verifiedAt: null, listed: false, unlistedReason: 'unverified', rank: null })
    expect(await publicStatuses(app, 'emerald-valley')).toEqual({ page: 404, votePage: 404, record: 404, vote: 404, ranked: false })

    const first = await json(await alice('GET', '/api/v1/me/servers/emerald-valley/verification'))
    expect(first.status).toBe(200)
    const token: string = first.body.token
    expect(token).toMatch(/^vl-[0-9a-v]{12}$/)
    expect(first.body).toEqual({
      ok: true, token, verified: false, verifiedAt: null, address: `127.0.0.1:${mc.port}`,
      instructions: [expect.stringContaining(`"motd=A Minecraft Server ${token}"`), expect.any(String), expect.stringContaining(`pings 127.0.0.1:${mc.port}`), expect.stringContaining('does not expire')],
    })
    // The token is the listing's own: asked again, the same.
    expect((await json(await alice('GET', '/api/v1/me/servers/emerald-valley/verification'))).body.token).toBe(token)

    // Not in the MOTD yet: 409 quoting what the server answered.
    const missing = await json(await alice('POST', '/api/v1/me/servers/emerald-valley/verification'))
    expect(missing).toEqual({
      status: 409,
      body: {
        ok: false, motd: 'A Minecraft Server',
        error: { code: 'CONFLICT', message: `the MOTD of 127.0.0.1:${mc.port} does not contain ${token}: it reads "A Minecraft Server". Put the token in the MOTD, restart or reload the server, then verify again.`, reason: 'TOKEN_NOT_IN_MOTD' },
      },
    })

    // In the MOTD, between formatting codes and in capitals.
    mc.setMotd(`§6Emerald Valley §r§l${token.toUpperCase()}`)
    const proved = await json(await alice('POST', '/api/v1/me/servers/emerald-valley/verification'))
    expect(proved.status).toBe(200)
    expect(proved.body).toMatchObject({ ok: true, token, verified: true, verifiedAt: expect.any(String), motd: `Emerald Valley ${token.toUpperCase()}` })
    const detail = (await json(await alice('GET', '/api/v1/me/servers/emerald-valley'))).body.server
    expect(detail).toMatchObject({ verified: true, verifiedAt: proved.body.verifiedAt, listed: true, unlistedReason: null, rank: 1 })
    expect(await publicStatuses(app, 'emerald-valley')).toEqual({ page: 200, votePage: 200, record: 200, vote: 201, ranked: true })
    expect((await json(await call(app, 'GET', '/api/v1/servers/emerald-valley'))).body.server.verified).toBe(true)
    expect(await marks(app, 'emerald-valley', 'Emerald Valley')).toEqual({ ranking: true, page: true, votePage: true })
    expect(await (await call(app, 'GET', '/serveur/emerald-valley')).text()).toContain(`<h1>Emerald Valley ${MARK}</h1>`)

    // The token removed: a check fails but the listing stays verified.
    mc.setMotd('Emerald Valley')
    const again = await json(await alice('POST', '/api/v1/me/servers/emerald-valley/verification'))
    expect(again.status).toBe(409)
    expect(again.body.error.message).toEndWith('The listing stays verified.')
    expect((await json(await alice('GET', '/api/v1/me/servers/emerald-valley/verification'))).body).toMatchObject({ verified: true, verifiedAt: proved.body.verifiedAt })

    // Another host for the same server is another address: the proof is gone.
    const moved = await json(await alice('PATCH', '/api/v1/me/servers/emerald-valley', { host: 'localhost' }))
    expect(moved.body.server).toMatchObject({ host: 'localhost', verified: false, verifiedAt: null, listed: false, unlistedReason: 'unverified' })
    expect((await publicStatuses(app, 'emerald-valley')).page).toBe(404)
  })

  test('a Bedrock server (bedrock-protocol): the token in the advertised MOTD or world name', async () => {
    const { app, alice } = await site(backend)
    const bedrock = await started(bedrockMotdServer('Dedicated Server', 'Bedrock level'))
    await alice('POST', '/api/v1/me/servers', { name: 'Stone Isle', host: '127.0.0.1', port: bedrock.port, edition: 'bedrock' })
    // Without require_verification an unverified server is listed.
    expect(await publicStatuses(app, 'stone-isle')).toMatchObject({ page: 200, votePage: 200, record: 200, ranked: true })
    expect(await marks(app, 'stone-isle', 'Stone Isle')).toEqual({ ranking: false, page: false, votePage: false })
    const { token, instructions } = (await json(await alice('GET', '/api/v1/me/servers/stone-isle/verification'))).body
    expect(instructions[0]).toContain(`"server-name=Dedicated Server ${token}"`)
    const missing = await json(await alice('POST', '/api/v1/me/servers/stone-isle/verification'))
    expect(missing.status).toBe(409)
    expect(missing.body.motd).toBe('Dedicated Server\nBedrock level')
    expect(missing.body.error.message).toContain('it reads "Dedicated Server\\nBedrock level"')
    bedrock.setMotd(`Dedicated Server ${token}`)
    const proved = await json(await alice('POST', '/api/v1/me/servers/stone-isle/verification'))
    expect(proved.body).toMatchObject({ ok: true, verified: true, motd: `Dedicated Server ${token}\nBedrock level` })
    expect((await json(await call(app, 'GET', '/api/v1/servers/stone-isle'))).body.server.verified).toBe(true)
    expect(await marks(app, 'stone-isle', 'Stone Isle')).toEqual({ ranking: true, page: true, votePage: true })
  })

  test('two accounts list one server: the verified one keeps the address, and the latest proof wins', async () => {
    const { rt, app, alice } = await site(backend)
    const bob = as(app, (await ownerSession(rt, 'bob@example.com')).headers)
    const mc = await started(javaMotdServer('A Minecraft Server'))
    await alice('POST', '/api/v1/me/servers', { name: 'Real', host: '127.0.0.1', port: mc.port })
    await bob('POST', '/api/v1/me/servers', { name: 'Copy', host: '127.0.0.1', port: mc.port })
    const state = async () => ({
      real: (await publicStatuses(app, 'real')).page, copy: (await publicStatuses(app, 'copy')).page,
      copyReason: (await json(await bob('GET', '/api/v1/me/servers/copy'))).body.server.unlistedReason,
      realReason: (await json(await alice('GET', '/api/v1/me/servers/real'))).body.server.unlistedReason,
    })
    expect(await state()).toEqual({ real: 200, copy: 200, copyReason: null, realReason: null })
    const verify = async (who: typeof alice, slug: string) => {
      mc.setMotd(`Hello ${(await json(await who('GET', `/api/v1/me/servers/${slug}/verification`))).body.token}`)
      return (await who('POST', `/api/v1/me/servers/${slug}/verification`)).status
    }
    expect(await verify(alice, 'real')).toBe(200)
    expect(await state()).toEqual({ real: 200, copy: 404, copyReason: 'claimed', realReason: null })
    // The server changed hands: its MOTD now carries Bob's token, and his listing takes the address.
    expect(await verify(bob, 'copy')).toBe(200)
    expect(await state()).toEqual({ real: 404, copy: 200, copyReason: null, realReason: 'claimed' })
    expect((await json(await alice('GET', '/api/v1/me/servers/real/verification'))).body.verified).toBe(false)
  })

  test('a server that does not answer: 409 with the ping\'s error; the checks are rate limited per server', async () => {
    const { alice } = await site(backend, { limits: { verifications_per_minute: 2 } })
    const port = await refusedPort()
    await alice('POST', '/api/v1/me/servers', { name: 'Gone', host: '127.0.0.1', port })
    const down = await json(await alice('POST', '/api/v1/me/servers/gone/verification'))
    expect(down).toEqual({
      status: 409,
      body: {
        ok: false, motd: null,
        error: { code: 'CONFLICT', message: `could not read the MOTD of 127.0.0.1:${port}: connection refused. Check that the server is running and reachable at this address, then verify again.`, reason: 'MOTD_UNREADABLE' },
      },
    })
    expect((await alice('POST', '/api/v1/me/servers/gone/verification')).status).toBe(409)
    const limited = await alice('POST', '/api/v1/me/servers/gone/verification')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await limited.json()).error.code).toBe('RATE_LIMITED')
  })

  test('only the owner (or an admin) sees the token or verifies', async () => {
    const { rt, app, alice } = await site(backend)
    const bob = as(app, (await ownerSession(rt, 'bob@example.com')).headers)
    await alice('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'play.example.com' })
    expect((await json(await bob('GET', '/api/v1/me/servers/alpha/verification'))).status).toBe(403)
    expect((await json(await bob('POST', '/api/v1/me/servers/alpha/verification'))).status).toBe(403)
    expect((await json(await alice('GET', '/api/v1/me/servers/nothing/verification'))).status).toBe(404)
    expect((await call(app, 'GET', '/api/v1/me/servers/alpha/verification')).status).toBe(401)
  })
})
