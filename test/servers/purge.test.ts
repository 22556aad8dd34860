import { afterAll, expect, test } from 'bun:test'
import { saveWebhook } from '../../src/channels/service.ts'
import { createUser } from '../../src/accounts/service.ts'
import { monthOf } from '../../src/servers/month.ts'
import { purgeDeleted } from '../../src/servers/purge.ts'
import type { Server } from '../../src/servers/repo.ts'
import { deleteServer } from '../../src/servers/service.ts'
import { registerSiteWork } from '../../src/site.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { call, cleanupTemp, seedServer, siteAgain, siteOn, testApp, type BackendRuntime } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

// A server with a long history: many votes with their addresses, monthly counters and deliveries,
// written in one go (a few tens of thousands of rows: enough for many purge steps, fast to seed).
const VOTES = 20_000
async function seedHistory(rt: BackendRuntime, server: Server) {
  const base = rt.clock.now() - 10 * VOTES
  const n = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)'
  await rt.rows(`${n} INSERT INTO vote (id, server_id, pseudo, pseudo_key, created_at)
    SELECT 'seed-' || i, ?, 'Player' || i, 'player' || i, CAST(? AS BIGINT) + i FROM n`, VOTES, server.id, base)
  await rt.rows(`${n} INSERT INTO vote_address (vote_id, server_id, ip_key, address, created_at)
    SELECT 'seed-' || i, ?, 'ip-' || i, '203.0.113.7', CAST(? AS BIGINT) + i FROM n`, VOTES, server.id, base)
  await rt.rows(`${n} INSERT INTO voter_month (server_id, month, pseudo_key, pseudo, votes, last_vote_at)
    SELECT ?, '2026-10', 'player' || i, 'Player' || i, 1, CAST(? AS BIGINT) + i FROM n`, VOTES / 4, server.id, base)
  await rt.rows(`INSERT INTO server_month (server_id, month, votes, last_vote_at) VALUES (?, '2026-10', ?, ?)`, server.id, VOTES, base + VOTES)
  await rt.rows(`${n} INSERT INTO delivery (id, server_id, vote_id, channel, pseudo, status, attempts, created_at, updated_at)
    SELECT 'seed-d' || i, ?, 'seed-' || i, 'webhook', 'Player' || i, 'succeeded', 1, CAST(? AS BIGINT) + i, CAST(? AS BIGINT) + i FROM n`, VOTES / 4, server.id, base, base)
  await rt.rows(`${n} INSERT INTO delivery_attempt (delivery_id, server_id, attempt, status, started_at)
    SELECT 'seed-d' || i, ?, 1, 'succeeded', CAST(? AS BIGINT) + i FROM n`, VOTES / 4, server.id, base)
}

// Every row that hangs on the server, but its own.
async function rowsOf(rt: BackendRuntime, server: Server): Promise<number> {
  const tables = ['vote', 'vote_address', 'voter_month', 'server_month', 'delivery', 'delivery_attempt', 'api_key', 'webhook', 'server_mode']
  const counts = tables.map((t) => `(SELECT count(*) FROM ${t} WHERE server_id = ?)`)
  const r = await rt.row<{ n: number }>(`SELECT ${counts.join(' + ')} AS n`, ...tables.map(() => server.id))
  return Number(r!.n)
}

// Records, for every write transaction of the site, how many of the server's rows it removed.
function watchWrites(rt: BackendRuntime, server: Server, during: (left: number) => Promise<void>) {
  const removed: number[] = []
  const write = rt.store.write.bind(rt.store)
  let busy = false
  rt.store.write = (async (script: Parameters<typeof write>[0], opts?: Parameters<typeof write>[1]) => {
    if (busy) return write(script, opts)
    const before = await rowsOf(rt, server)
    const answer = await write(script, opts)
    const left = await rowsOf(rt, server)
    removed.push(before - left)
    busy = true
    try { await during(left) } finally { busy = false }
    return answer
  }) as typeof rt.store.write
  return removed
}

async function setup(backend: Backend) {
  const rt = await siteOn(backend)
  registerSiteWork(rt)
  const app = testApp(rt)
  const admin = as(app, (await ownerSession(rt, 'admin@example.com', true)).headers)
  const session = await ownerSession(rt, 'owner@example.com')
  const owner = as(app, session.headers)
  const { server: gone, key } = await seedServer(rt, { name: 'Gone', slug: 'gone', modes: ['survival'] })
  const { server: kept } = await seedServer(rt, { name: 'Kept', slug: 'kept', host: 'kept.example.com' })
  await saveWebhook(rt, gone.id, 'https://hooks.example.com/votes')
  await seedHistory(rt, gone)
  for (const pseudo of ['Steve', 'Alex']) await recordVote(rt, kept, pseudo, [null])
  return { rt, app, admin, owner, gone, kept, key }
}

describeBackends('deleting a server with a long history', (backend) => {
  test('the deletion answers at once; its rows are removed a few thousand per transaction while other servers\' votes are written', async () => {
    const { rt, owner, gone, kept } = await setup(backend)
    const total = await rowsOf(rt, gone)
    expect(total).toBeGreaterThan(2 * VOTES)
    const keptVotes = await rt.rows('SELECT id FROM vote WHERE server_id = ? ORDER BY id', kept.id)
    // Once some of its rows are gone and some are left, another server's vote is recorded.
    let votedWhileLeft: number | null = null
    const removed = watchWrites(rt, gone, async (left) => {
      if (votedWhileLeft !== null || left === 0 || left === total) return
      await recordVote(rt, kept, 'Notch', [null])
      votedWhileLeft = left
    })

    expect(await json(await owner('DELETE', '/api/v1/me/servers/gone'))).toEqual({ status: 200, body: { ok: true } })
    // No transaction removes more than a few thousand of its rows, the deletion's own neither: the
    // site's other writes (votes, plugin checks, logins) wait for one step at most, never for the
    // whole deletion.
    expect(Math.max(...removed)).toBeLessThanOrEqual(2000)
    await rt.scheduler.runNow('servers.purge')
    expect(Math.max(...removed)).toBeLessThanOrEqual(2000)
    expect(removed.filter((n) => n > 0).length).toBeGreaterThan(10)
    expect(votedWhileLeft).toBeGreaterThan(0)
    expect(await rowsOf(rt, gone)).toBe(0)
    expect(await rt.row('SELECT count(*) AS n FROM server WHERE id = ?', gone.id)).toEqual({ n: 0 })
    // The other server lost nothing and kept the vote recorded meanwhile.
    expect(await rt.row('SELECT count(*) AS n FROM vote WHERE server_id = ?', kept.id)).toEqual({ n: keptVotes.length + 1 })
    expect(await rt.row('SELECT votes FROM server_month WHERE server_id = ?', kept.id)).toEqual({ votes: 3 })
  })
})

describeBackends('a deleted server, before its rows are removed', (backend) => {
  test('is gone at once from every list, page and lookup; its key is refused and its slug is free', async () => {
    const { rt, app, admin, owner, gone, kept, key } = await setup(backend)
    const before = await rowsOf(rt, gone)
    expect((await call(app, 'GET', '/api/v1/server', { headers: { 'x-api-key': key } })).status).toBe(200)
    expect(await call(app, 'GET', '/').then((r) => r.text())).toContain('Gone')

    expect(await json(await owner('DELETE', '/api/v1/me/servers/gone'))).toEqual({ status: 200, body: { ok: true } })
    // The purge has not run: the rows are still there, but nobody sees the server any more.
    expect(await rowsOf(rt, gone)).toBeGreaterThan(before - 10)
    expect((await json(await owner('GET', '/api/v1/me/servers'))).body.servers.map((s: { slug: string }) => s.slug)).toEqual(['kept'])
    expect((await owner('GET', '/api/v1/me/servers/gone')).status).toBe(404)
    expect((await json(await admin('GET', '/api/v1/admin/servers'))).body.servers.map((s: { slug: string }) => s.slug)).toEqual(['kept'])
    const users = (await json(await admin('GET', '/api/v1/admin/users'))).body.users as { email: string; servers: number }[]
    expect(users.find((u) => u.email === 'owner@example.com')?.servers).toBe(1)
    for (const path of ['/serveur/gone', '/serveur/gone/voter', '/api/v1/servers/gone', '/api/v1/servers/gone/badge.svg', '/api/v1/servers/gone/history']) {
      expect({ path, status: (await call(app, 'GET', path)).status }).toEqual({ path, status: 404 })
    }
    const ranking = await call(app, 'GET', '/').then((r) => r.text())
    expect(ranking).toContain('Kept')
    expect(ranking).not.toContain('Gone')
    expect((await rt.store.ranking.page(monthOf(rt.clock.now()), {}, 10, 0)).rows.map((r) => r.slug)).toEqual(['kept'])
    expect((await rt.store.servers.pingTargets()).map((t) => t.id)).toEqual([kept.id])
    expect((await call(app, 'GET', '/api/v1/server', { headers: { 'x-api-key': key } })).status).toBe(401)
    expect(await rt.row('SELECT count(*) AS n FROM webhook WHERE server_id = ?', gone.id)).toEqual({ n: 0 })
    // The slug is free at once; the new server is another one, with nothing of the old.
    const again = await json(await owner('POST', '/api/v1/me/servers', { name: 'Gone Again', slug: 'gone', host: 'again.example.com' }))
    expect(again).toMatchObject({ status: 201, body: { server: { slug: 'gone', totalVotes: 0, monthlyVotes: 0 } } })
    expect(again.body.server.id).not.toBe(gone.id)
    expect((await call(app, 'GET', '/serveur/gone')).status).toBe(200)

    await rt.scheduler.runNow('servers.purge')
    expect(await rowsOf(rt, gone)).toBe(0)
    expect((await json(await owner('GET', '/api/v1/me/servers'))).body.servers.map((s: { slug: string }) => s.slug)).toEqual(['kept', 'gone'])
  })
})

describeBackends('a purge stopped in the middle', (backend) => {
  test('leaves the server gone and goes on after a restart, until every row is removed', async () => {
    const { rt, gone, kept } = await setup(backend)
    const keptVotes = await rt.row('SELECT count(*) AS n FROM vote WHERE server_id = ?', kept.id)
    await deleteServer(rt, gone, { id: gone.ownerId, email: 'owner@example.com', isAdmin: false })
    const total = await rowsOf(rt, gone)
    // Stopped as a stopping process stops it: between two steps, after a few.
    const stop = new AbortController()
    let steps = 0
    watchWrites(rt, gone, async () => { if (++steps === 3) stop.abort() })
    await purgeDeleted(rt, stop.signal)
    const left = await rowsOf(rt, gone)
    expect(left).toBeGreaterThan(0)
    expect(left).toBeLessThan(total)
    expect(await rt.store.servers.bySlug('gone')).toBeNull()

    const next = await siteAgain(rt)
    registerSiteWork(next)
    expect(await next.store.servers.bySlug('gone')).toBeNull()
    await next.scheduler.runNow('servers.purge')
    expect(await rowsOf(next, gone)).toBe(0)
    expect(await next.row('SELECT count(*) AS n FROM server WHERE id = ?', gone.id)).toEqual({ n: 0 })
    expect(await next.row('SELECT count(*) AS n FROM vote WHERE server_id = ?', kept.id)).toEqual(keptVotes)
  })
})

describeBackends('deleting an account with its servers', (backend) => {
  test('ends its sessions and frees its address at once; the account goes once its servers are removed', async () => {
    const { rt, app, admin, owner, gone, kept } = await setup(backend)
    const { user: other } = await ownerSession(rt, 'other@example.com')
    const { server: theirs } = await seedServer(rt, { name: 'Theirs', slug: 'theirs', host: 'theirs.example.com' }, 'other@example.com')
    await recordVote(rt, theirs, 'Steve', [null])
    const ownerId = gone.ownerId

    expect(await json(await admin('DELETE', `/api/v1/admin/users/${ownerId}`))).toEqual({ status: 200, body: { ok: true } })
    expect((await owner('GET', '/api/v1/me')).status).toBe(401)
    const users = (await json(await admin('GET', '/api/v1/admin/users'))).body.users as { email: string }[]
    expect(users.map((u) => u.email).sort()).toEqual(['admin@example.com', 'other@example.com'])
    expect((await json(await admin('GET', '/api/v1/admin/servers'))).body.servers.map((s: { slug: string }) => s.slug)).toEqual(['theirs'])
    for (const slug of ['gone', 'kept']) expect((await call(app, 'GET', `/api/v1/servers/${slug}`)).status).toBe(404)
    // The address can make a new account at once; the old one is not it.
    const fresh = await createUser(rt, { email: 'owner@example.com', password: 'correct horse battery' })
    expect(fresh.id).not.toBe(ownerId)

    await rt.scheduler.runNow('servers.purge')
    for (const s of [gone, kept]) expect(await rowsOf(rt, s)).toBe(0)
    expect(await rt.row('SELECT count(*) AS n FROM server WHERE owner_id = ?', ownerId)).toEqual({ n: 0 })
    expect(await rt.row('SELECT count(*) AS n FROM "user" WHERE id = ?', ownerId)).toEqual({ n: 0 })
    expect(await rt.row('SELECT count(*) AS n FROM vote WHERE server_id = ?', theirs.id)).toEqual({ n: 1 })
    expect(await rt.store.users.byId(other.id)).not.toBeNull()
  })
})
