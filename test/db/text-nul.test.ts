import { afterAll, expect, test } from 'bun:test'
import { recordRound } from '../../src/stats/round.ts'
import { describeBackends } from '../backends.ts'
import { call, cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

// U+0000 reaches the database from anyone: a query string (%00), a JSON body ("\u0000"), the
// error text of a delivery to a target that answered with it. SQLite's text holds it; PostgreSQL's
// cannot (its statements fail), so there it is kept as U+FFFD, the character a browser shows for
// it, wherever it is written or looked for.
describeBackends('text holding U+0000', (backend) => {
  const kept = (text: string) => (backend === 'postgres' ? text.replaceAll('\0', '\uFFFD') : text)

  test('a search holding it answers the ranking page, as any search that finds nothing', async () => {
    const rt = await siteOn(backend)
    const app = await testApp(rt)
    const owner = as(app, (await ownerSession(rt, 'owner@example.com')).headers)
    expect((await owner('POST', '/api/v1/me/servers', { name: 'Emerald Valley', host: 'play.example.com' })).status).toBe(201)
    const r = await call(app, 'GET', '/?search=val%00ley', { headers: { accept: 'text/html' } })
    expect(r.status).toBe(200)
    expect(await r.text()).not.toContain('Emerald Valley')
  })

  // A name is plain text (src/servers/service.ts): both backends refuse it alike, rather than
  // keep two different names.
  test('a server name holding it is refused alike on both backends; a slug holding it finds nothing', async () => {
    const rt = await siteOn(backend)
    const app = await testApp(rt)
    const owner = as(app, (await ownerSession(rt, 'owner@example.com')).headers)
    const created = await json(await owner('POST', '/api/v1/me/servers', { name: 'Emerald\u0000Valley', host: 'play.example.com' }))
    expect(created).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAMETER', field: 'name' } } })
    expect((await call(app, 'GET', '/api/v1/servers/emerald-valley')).status).toBe(404)
    expect((await call(app, 'GET', '/api/v1/servers/emerald%00valley')).status).toBe(404)
  })

  test('a ping error holding it (a server\'s answer quoted) is recorded with its round', async () => {
    const rt = await siteOn(backend)
    const { server } = await seedServer(rt)
    const targets = await rt.store.servers.pingTargets()
    const t = rt.clock.now()
    const error = 'invalid answer: JSON Parse error: Unrecognized token \'\u0000\''
    const status = { online: false, playersOnline: 0, playersMax: 0, version: null, motd: null, styledMotd: null, favicon: null, latencyMs: null, error }
    await rt.store.write((tx) => recordRound(tx, t, targets, [{ serverNum: server.num, serverId: server.id, status, at: t }]))
    expect(await rt.store.servers.status(server.num)).toMatchObject({ online: false, error: kept(error) })
  })

  test('a job\'s error holding it is kept, whether the job is settled alone or with others', async () => {
    const rt = await siteOn(backend)
    const now = rt.clock.now()
    const lastError = async (id: number) => (await rt.row<{ e: string }>('SELECT last_error AS e FROM job WHERE id = ?', id))!.e
    const id = await rt.store.jobs.enqueue({ kind: 'nul.test' }, now)
    const claim = (at: number) => rt.store.jobs.claim({ kinds: ['nul.test'], now: at, leaseUntil: at + 60_000, limit: 1 })
    const [first] = await claim(now)
    await rt.store.jobs.reschedule(first, now + 1, 'greeted with "\u0000\u0001"')
    expect(await lastError(id)).toBe(kept('greeted with "\u0000\u0001"'))
    const [second] = await claim(now + 1)
    await rt.store.jobs.settle([{ job: second, retryAt: now + 2, error: 'answered "\u0000"' }])
    expect(await lastError(id)).toBe(kept('answered "\u0000"'))
  })
})
