import { afterAll, expect, test } from 'bun:test'
import { sha256Hex } from '../../src/ids.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { call, cleanupTemp, siteOn, testApp } from '../helpers.ts'
import { until } from '../until.ts'
import { as, cookieOf, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

const HOUR = 3600_000
const login = (app: Awaited<ReturnType<typeof testApp>>, password: string) =>
  call(app, 'POST', '/api/v1/auth/login', { body: { email: 'owner@example.com', password } })
const invalidToken = { ok: false, error: { code: 'INVALID_PARAMETER', message: 'this reset link is not valid: it has expired, was already used, or a newer link replaced it; ask an administrator for a new one', field: 'token' } }

async function site(backend: Backend, input: Parameters<typeof siteOn>[1] = {}) {
  const rt = await siteOn(backend, input)
  const app = await testApp(rt)
  const admin = await ownerSession(rt, 'admin@example.com')
  const owner = await ownerSession(rt, 'owner@example.com')
  const asAdmin = as(app, admin.headers)
  const link = async () => (await json(await asAdmin('POST', `/api/v1/admin/users/${owner.user.id}/reset-link`))).body as { ok: true; url: string; expiresAt: string }
  const reset = (token: string, password: string) => call(app, 'POST', '/api/v1/auth/reset', { body: { token, password } })
  return { rt, app, admin, owner, asAdmin, link, reset }
}

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!
// The device cookie an answer set (src/accounts/known-device.ts), as `name=value`.
const deviceOf = (r: Response) => r.headers.getSetCookie().find((c) => c.startsWith('votelist_device='))!.split(';')[0]

describeBackends('password reset links', (backend) => {
  test('a link opens the dashboard\'s reset page, works once, sets the password, ends the other sessions and logs in', async () => {
    const { rt, app, admin, owner, link, reset } = await site(backend, { site: { base_url: 'https://vote.example.org' } })
    const made = await link()
    expect(made).toEqual({ ok: true, url: expect.stringMatching(/^https:\/\/vote\.example\.org\/dashboard\/reset\?token=[A-Za-z0-9_-]{43}$/), expiresAt: new Date(rt.clock.now() + 24 * HOUR).toISOString() })
    const token = tokenOf(made.url)
    // Only the token's hash is stored.
    expect(await rt.rows('SELECT token_hash AS h FROM password_reset')).toEqual([{ h: sha256Hex(token) }])

    const used = await reset(token, 'a brand new password')
    expect(await used.clone().json()).toEqual({ ok: true, user: { id: owner.user.id, email: 'owner@example.com', isAdmin: false, createdAt: expect.any(String) } })
    const fresh = cookieOf(used)
    expect(fresh).toStartWith('__Host-votelist_session=')
    expect((await call(app, 'GET', '/api/v1/me', { headers: owner.headers })).status).toBe(401) // the session open before
    expect((await call(app, 'GET', '/api/v1/me', { headers: { cookie: fresh } })).status).toBe(200)
    expect((await login(app, 'correct horse battery')).status).toBe(401)
    expect((await login(app, 'a brand new password')).status).toBe(200)
    expect(await json(await reset(token, 'yet another password'))).toEqual({ status: 400, body: invalidToken })
    expect((await login(app, 'a brand new password')).status).toBe(200)

    const log = (await (await call(app, 'GET', '/api/v1/admin/audit', { headers: admin.headers })).json()) as { entries: { actor: { email: string }; action: string }[] }
    expect(log.entries.map((e) => `${e.actor.email} ${e.action}`)).toEqual(['owner@example.com user.password_reset', 'admin@example.com user.reset_link'])
  })

  test('a new link replaces the previous one; a link expires after 24 hours; a short password is refused without using the link', async () => {
    const { rt, link, reset } = await site(backend)
    const first = tokenOf((await link()).url)
    const second = tokenOf((await link()).url)
    expect(await json(await reset(first, 'a brand new password'))).toEqual({ status: 400, body: invalidToken })
    expect(await json(await reset(second, 'short'))).toEqual({ status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: 'password must be 8 to 256 characters long', field: 'password' } } })
    rt.clock.advance(24 * HOUR)
    expect(await json(await reset(second, 'a brand new password'))).toEqual({ status: 400, body: invalidToken })
    const third = tokenOf((await link()).url)
    rt.clock.advance(24 * HOUR - 1)
    expect((await reset(third, 'a brand new password')).status).toBe(200)
    expect(await json(await reset('not-a-token', 'a brand new password'))).toEqual({ status: 400, body: invalidToken })
  })

  test('a disabled account\'s link is refused and stays unused until the account is enabled', async () => {
    const { owner, asAdmin, link, reset } = await site(backend)
    const token = tokenOf((await link()).url)
    await asAdmin('PATCH', `/api/v1/admin/users/${owner.user.id}`, { disabled: true })
    expect(await json(await reset(token, 'a brand new password'))).toEqual({ status: 403, body: { ok: false, error: { code: 'FORBIDDEN', message: 'this account is disabled: ask the site\'s administrator' } } })
    await asAdmin('PATCH', `/api/v1/admin/users/${owner.user.id}`, { disabled: false })
    expect((await reset(token, 'a brand new password')).status).toBe(200)
  })

  test('two uses of one link at once: exactly one sets the password', async () => {
    const { link, reset } = await site(backend)
    const token = tokenOf((await link()).url)
    const answers = await Promise.all(['first password!', 'second password!'].map((p) => reset(token, p)))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400])
  })

  test('an unknown account gets no link; a cross-site reset is refused', async () => {
    const { app, asAdmin, link } = await site(backend)
    expect((await asAdmin('POST', '/api/v1/admin/users/no-such-id/reset-link')).status).toBe(404)
    const token = tokenOf((await link()).url)
    const r = await call(app, 'POST', '/api/v1/auth/reset', { body: { token, password: 'a brand new password' }, headers: { origin: 'https://evil.example' } })
    expect(r.status).toBe(403)
  })

  test('a reset ends the device cookies issued before it: a browser that knew the old password counts against the account\'s lock again', async () => {
    const { app, link, reset } = await site(backend, { accounts: { failed_logins_per_account: 3, login_attempts_per_minute: 1000 } })
    const attempt = (password: string, cookie?: string) =>
      call(app, 'POST', '/api/v1/auth/login', { body: { email: 'owner@example.com', password }, headers: cookie ? { cookie } : {} })
    // Someone who knew the password logged in, twice: each login gave a device cookie.
    const stale = [deviceOf(await attempt('correct horse battery')), deviceOf(await attempt('correct horse battery'))]
    const used = await reset(tokenOf((await link()).url), 'a brand new password')
    const fresh = deviceOf(used)
    // Their guesses at the new password now count against the account, whichever old cookie they send.
    for (const cookie of [stale[0], stale[1], stale[0]]) expect((await attempt('a guess at the new one', cookie)).status).toBe(401)
    expect((await attempt('a brand new password', stale[1])).status).toBe(429)
    expect((await attempt('a brand new password')).status).toBe(429)
    // The browser that made the reset got a fresh cookie: the lock is not its.
    expect((await attempt('a brand new password', fresh)).status).toBe(200)
  })

  test('a login with the old password that was under way while the reset was made opens no session that outlives it', async () => {
    const { rt, app, owner, link, reset } = await site(backend)
    // The login reads the account (its old password hash), and is held there while the reset is made:
    // as when the reset commits during the seconds' fraction the login spends hashing.
    const users = rt.store.users
    const byEmail = users.byEmail.bind(users)
    let read = false
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    users.byEmail = async (email: string) => {
      const found = await byEmail(email)
      read = true
      await held
      return found
    }
    const late = login(app, 'correct horse battery')
    await until(() => read, 'the login to read the account')
    users.byEmail = byEmail
    expect((await reset(tokenOf((await link()).url), 'a brand new password')).status).toBe(200)
    release()
    // It checked a password that is no longer the account's: refused, and no session was written.
    expect(await json(await late)).toEqual({ status: 401, body: { ok: false, error: { code: 'UNAUTHENTICATED', message: 'wrong e-mail address or password' } } })
    expect(await rt.rows('SELECT count(*) AS n FROM session WHERE user_id = ? AND revoked_at IS NULL', owner.user.id)).toEqual([{ n: 1 }]) // the reset's
  })
})
