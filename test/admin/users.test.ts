import { afterAll, expect, test } from 'bun:test'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import { changeUser } from '../../src/admin/users.ts'
import { purgeDeleted } from '../../src/servers/purge.ts'
import { createServer } from '../../src/servers/service.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { call, cleanupTemp, seedServer, siteOn, testApp, testLookup, type BackendRuntime } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

type App = Awaited<ReturnType<typeof testApp>>
// A Cookie header for a new session of this account.
const sessionOf = async (rt: BackendRuntime, userId: string) => ({ cookie: `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, userId)).token}` })
const error = (code: string, message: unknown = expect.any(String), reason?: string) => ({ ok: false, error: { code, message, ...(reason && { reason }) } })

// A site with an administrator and an owner who has a listed server, an API key and a vote.
async function site(backend: Backend) {
  const rt = await siteOn(backend)
  const app = await testApp(rt)
  const admin = await ownerSession(rt, 'admin@example.com')
  const { owner, server, key } = await seedServer(rt, { name: 'Emerald Valley' })
  await recordVote(rt, server, 'Steve', ['203.0.113.7'])
  const ownerCookie = (await sessionOf(rt, owner.id)).cookie
  return { rt, app, admin, asAdmin: as(app, admin.headers), owner, ownerCookie, server, key }
}

const auditActions = async (app: App, headers: Record<string, string>) =>
  ((await (await call(app, 'GET', '/api/v1/admin/audit', { headers })).json()) as { entries: { action: string; target: { label: string }; actor: { email: string } }[] }).entries
    .map((e) => `${e.actor.email} ${e.action} ${e.target.label}`)

// What the public and the owner's plugin see of the server.
async function publicView(app: App, rt: BackendRuntime, slug: string, key: string) {
  return {
    ranking: (await (await call(app, 'GET', '/')).text()).includes(`href="/serveur/${slug}"`),
    page: (await call(app, 'GET', `/serveur/${slug}`)).status,
    record: (await call(app, 'GET', `/api/v1/servers/${slug}`)).status,
    badge: (await call(app, 'GET', `/api/v1/servers/${slug}/badge.svg`)).status,
    votePage: (await call(app, 'GET', `/serveur/${slug}/voter`)).status,
    vote: (await call(app, 'POST', `/serveur/${slug}/voter`, { body: { pseudo: 'Alex' }, headers: { accept: 'application/json' } })).status,
    key: (await call(app, 'GET', '/api/v1/votes/check?pseudo=Steve', { headers: { 'x-api-key': key } })).status,
    pinged: (await rt.store.servers.pingTargets()).length,
  }
}

describeBackends('disable and enable an account', (backend) => {
  test('a disabled account: its session is refused at once, it cannot log in, its servers leave every public list and its keys stop; enabling brings them back', async () => {
    const { rt, app, admin, asAdmin, owner, ownerCookie, server, key } = await site(backend)
    const listed = { ranking: true, page: 200, record: 200, badge: 200, votePage: 200, vote: 201, key: 200, pinged: 1 }
    // The key's lookup is cached before the change: the change must still reach it.
    expect(await publicView(app, rt, server.slug, key)).toEqual(listed)
    expect((await call(app, 'GET', '/api/v1/me', { headers: { cookie: ownerCookie } })).status).toBe(200)

    const r = await json(await asAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, { disabled: true }))
    expect(r).toEqual({ status: 200, body: { ok: true, user: { id: owner.id, email: 'owner@example.com', isAdmin: false, disabled: true, servers: 1, createdAt: expect.any(String) } } })
    expect((await call(app, 'GET', '/api/v1/me', { headers: { cookie: ownerCookie } })).status).toBe(401)
    expect(await json(await call(app, 'POST', '/api/v1/auth/login', { body: { email: 'owner@example.com', password: 'correct horse battery' } })))
      .toEqual({ status: 403, body: { ok: false, error: { code: 'FORBIDDEN', message: 'this account is disabled: ask the site\'s administrator', field: 'email' } } })
    // A wrong password still gets the ordinary answer: the state is told only to whoever knows it.
    expect((await call(app, 'POST', '/api/v1/auth/login', { body: { email: 'owner@example.com', password: 'wrong password!' } })).status).toBe(401)
    expect(await publicView(app, rt, server.slug, key)).toEqual({ ranking: false, page: 404, record: 404, badge: 404, votePage: 404, vote: 404, key: 401, pinged: 0 })
    // The administrator still sees and manages it.
    expect((await asAdmin('GET', `/api/v1/me/servers/${server.slug}`)).status).toBe(200)

    expect((await json(await asAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, { disabled: false }))).body.user.disabled).toBe(false)
    rt.clock.advance(3 * 3600_000) // past the vote interval of the first view's vote
    expect(await publicView(app, rt, server.slug, key)).toEqual(listed)
    // Its old session stays ended; logging in works again.
    expect((await call(app, 'GET', '/api/v1/me', { headers: { cookie: ownerCookie } })).status).toBe(401)
    expect((await call(app, 'POST', '/api/v1/auth/login', { body: { email: 'owner@example.com', password: 'correct horse battery' } })).status).toBe(200)
    expect(await auditActions(app, admin.headers)).toEqual(['admin@example.com user.enable owner@example.com', 'admin@example.com user.disable owner@example.com'])
  })

  test('setting what an account already is changes nothing and logs nothing; bad bodies and ids are refused', async () => {
    const { app, admin, asAdmin, owner } = await site(backend)
    expect((await asAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, { disabled: false, admin: false })).status).toBe(200)
    expect(await auditActions(app, admin.headers)).toEqual([])
    expect(await json(await asAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, {}))).toEqual({ status: 400, body: error('INVALID_PARAMETER', 'nothing to change: give "disabled", "admin" or both') })
    expect(await json(await asAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, { disabled: 'yes' })))
      .toEqual({ status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'disabled must be true or false', field: 'disabled' } } })
    expect((await json(await asAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, { email: 'x@example.com' }))).body.error.field).toBe('email')
    expect(await json(await asAdmin('PATCH', '/api/v1/admin/users/no-such-id', { disabled: true }))).toEqual({ status: 404, body: error('NOT_FOUND') })
  })
})

describeBackends('administrators', (backend) => {
  test('promote and demote: the right follows at once, and both are in the audit log', async () => {
    const { app, admin, asAdmin, owner, ownerCookie } = await site(backend)
    const ownerGet = () => call(app, 'GET', '/api/v1/admin/users', { headers: { cookie: ownerCookie } })
    expect((await ownerGet()).status).toBe(403)
    expect((await json(await asAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, { admin: true }))).body.user.isAdmin).toBe(true)
    expect((await ownerGet()).status).toBe(200)
    expect((await asAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, { admin: false })).status).toBe(200)
    expect((await ownerGet()).status).toBe(403)
    expect(await auditActions(app, admin.headers)).toEqual(['admin@example.com user.demote owner@example.com', 'admin@example.com user.promote owner@example.com'])
  })

  test('the site always keeps an administrator who can log in: the last one cannot be demoted, disabled or deleted, not even by themselves', async () => {
    const { rt, app, admin, asAdmin, owner } = await site(backend)
    const last = 'the only administrator who can log in; make another account administrator first'
    expect(await json(await asAdmin('PATCH', `/api/v1/admin/users/${admin.user.id}`, { admin: false })))
      .toEqual({ status: 409, body: error('CONFLICT', `removing the administrator right refused: admin@example.com is ${last}`, 'LAST_ADMIN') })
    expect(await json(await asAdmin('PATCH', `/api/v1/admin/users/${admin.user.id}`, { disabled: true })))
      .toEqual({ status: 409, body: error('CONFLICT', `disabling the account refused: admin@example.com is ${last}`, 'LAST_ADMIN') })
    expect(await json(await asAdmin('DELETE', `/api/v1/admin/users/${admin.user.id}`)))
      .toEqual({ status: 409, body: error('CONFLICT', 'you cannot delete your own account: another administrator can', 'OWN_ACCOUNT') })
    // A second administrator, disabled, does not count.
    await asAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, { admin: true, disabled: true })
    expect((await asAdmin('PATCH', `/api/v1/admin/users/${admin.user.id}`, { admin: false })).status).toBe(409)
    // Enabled, it does: the first one may then step down, and the second is the last.
    await asAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, { disabled: false })
    expect((await json(await asAdmin('PATCH', `/api/v1/admin/users/${admin.user.id}`, { admin: false }))).body.user.isAdmin).toBe(false)
    expect((await asAdmin('GET', '/api/v1/admin/users')).status).toBe(403)
    const second = await ownerSession(rt, 'third@example.com')
    expect(second.user.isAdmin).toBe(false)
    expect(await rt.store.users.countEnabledAdmins()).toBe(1)
    const ownerAdmin = as(app, await sessionOf(rt, owner.id))
    expect((await ownerAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, { disabled: true, admin: false })).status).toBe(409)
    expect((await ownerAdmin('PATCH', `/api/v1/admin/users/${admin.user.id}`, { admin: true })).status).toBe(200)
  })

  test('two administrators disabling each other at the same moment: one change is refused, and an administrator is left', async () => {
    const { rt, admin, asAdmin, owner } = await site(backend)
    await asAdmin('PATCH', `/api/v1/admin/users/${owner.id}`, { admin: true })
    // The service itself, twice at once (through the routes, the second request could be refused
    // earlier, by its session ended by the first).
    const outcomes = await Promise.allSettled([
      changeUser(rt, admin.user, owner.id, { disabled: true }),
      changeUser(rt, { ...owner, isAdmin: true }, admin.user.id, { disabled: true }),
    ])
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected'])
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toMatchObject({ status: 409, errorCode: 'CONFLICT' })
    expect(await rt.store.users.countEnabledAdmins()).toBe(1)
  })
})

describeBackends('delete an account', (backend) => {
  test('deletes it with its servers, their votes and keys; the audit log keeps who and how many servers', async () => {
    const { rt, app, admin, asAdmin, owner, server, key } = await site(backend)
    await createServer({ ...rt, lookup: testLookup }, owner.id, { name: 'Second Realm', host: 'two.example.com' })
    expect((await call(app, 'GET', '/api/v1/votes/check?pseudo=Steve', { headers: { 'x-api-key': key } })).status).toBe(200)
    expect(await json(await asAdmin('DELETE', `/api/v1/admin/users/${owner.id}`))).toEqual({ status: 200, body: { ok: true } })
    expect(await rt.store.users.byId(owner.id)).toBeNull()
    expect(await rt.row('SELECT count(*) AS n FROM api_key')).toEqual({ n: 0 })
    // Its servers' votes, and then the servers and the account, are removed by the purge.
    await purgeDeleted(rt)
    for (const table of ['server', 'vote']) expect(await rt.row(`SELECT count(*) AS n FROM ${table}`)).toEqual({ n: 0 })
    expect(await rt.row('SELECT count(*) AS n FROM "user" WHERE id = ?', owner.id)).toEqual({ n: 0 })
    expect((await call(app, 'GET', '/api/v1/votes/check?pseudo=Steve', { headers: { 'x-api-key': key } })).status).toBe(401)
    expect((await call(app, 'GET', `/api/v1/servers/${server.slug}`)).status).toBe(404)
    const { entries } = (await (await call(app, 'GET', '/api/v1/admin/audit', { headers: admin.headers })).json()) as { entries: unknown[] }
    expect(entries).toEqual([{
      id: expect.any(Number), at: new Date(rt.clock.now()).toISOString(), actor: { id: admin.user.id, email: 'admin@example.com' },
      action: 'user.delete', target: { type: 'user', id: owner.id, label: 'owner@example.com' }, detail: { servers: 2 },
    }])
    expect((await asAdmin('DELETE', `/api/v1/admin/users/${owner.id}`)).status).toBe(404)
  })
})

describeBackends('servers moderated by an administrator', (backend) => {
  test('hide, show, edit and delete of another account\'s server are in the audit log; an owner editing or deleting their own is not', async () => {
    const { rt, app, admin, asAdmin, owner, server } = await site(backend)
    await asAdmin('PATCH', `/api/v1/me/servers/${server.slug}`, { hidden: true })
    await asAdmin('PATCH', `/api/v1/me/servers/${server.slug}`, { hidden: true })
    await asAdmin('PATCH', `/api/v1/me/servers/${server.slug}`, { hidden: false })
    // An edit lists the fields it changed; one that changes nothing is not written.
    await asAdmin('PATCH', `/api/v1/me/servers/${server.slug}`, { name: 'Emerald Valley', description: 'Moderated.', modes: ['survival', 'pvp'] })
    await asAdmin('PATCH', `/api/v1/me/servers/${server.slug}`, { name: 'Emerald Valley', modes: ['survival', 'pvp'] })
    await asAdmin('PATCH', `/api/v1/me/servers/${server.slug}`, { name: 'Emerald Vale' })
    await asAdmin('DELETE', `/api/v1/me/servers/${server.slug}`)
    const own = await createServer({ ...rt, lookup: testLookup }, owner.id, { name: 'Own Realm', host: 'own.example.com' })
    const ownerHeaders = await sessionOf(rt, owner.id)
    expect((await call(app, 'PATCH', `/api/v1/me/servers/${own.slug}`, { body: { name: 'Own Realm II' }, headers: ownerHeaders })).status).toBe(200)
    expect((await call(app, 'DELETE', `/api/v1/me/servers/${own.slug}`, { headers: ownerHeaders })).status).toBe(200)
    expect(await auditActions(app, admin.headers)).toEqual([
      'admin@example.com server.delete Emerald Vale', 'admin@example.com server.update Emerald Valley', 'admin@example.com server.update Emerald Valley',
      'admin@example.com server.show Emerald Valley', 'admin@example.com server.hide Emerald Valley',
    ])
    const { entries } = (await (await call(app, 'GET', '/api/v1/admin/audit?limit=3', { headers: admin.headers })).json()) as { entries: { detail: unknown }[] }
    expect(entries.map((e) => e.detail)).toEqual([{ slug: server.slug }, { fields: 'name' }, { fields: 'modes, description' }])
  })
})
