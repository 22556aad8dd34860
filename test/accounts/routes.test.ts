import { afterAll, describe, expect, test } from 'bun:test'
import { SignJWT } from 'jose'
import { SESSION_TTL_MS } from '../../src/accounts/session.ts'
import { createApp } from '../../src/app.ts'
import { manualClock } from '../../src/clock.ts'
import { memoryLogger } from '../../src/log.ts'
import { call, cleanupTemp, testApp, sqliteSite, testConfig, testRuntime } from '../helpers.ts'
import { cookieOf, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

const password = 'correct horse battery'
const register = (app: { handle(r: Request): Promise<Response> }, email: string, pw = password, headers: Record<string, string> = {}) =>
  call(app, 'POST', '/api/v1/auth/register', { body: { email, password: pw }, headers })
const login = (app: { handle(r: Request): Promise<Response> }, email: string, pw = password, headers: Record<string, string> = {}) =>
  call(app, 'POST', '/api/v1/auth/login', { body: { email, password: pw }, headers })
const me = (app: { handle(r: Request): Promise<Response> }, cookie: string) => call(app, 'GET', '/api/v1/me', { headers: { cookie } })
const error = (code: string, reason?: string) => ({ ok: false, error: { code, message: expect.any(String), ...(reason && { reason }) } })

describe('registration', () => {
  test('creates the account, logs it in with an HttpOnly SameSite=Lax cookie; the first account is the admin', async () => {
    const rt = testRuntime()
    const app = await testApp(rt)
    const first = await register(app, 'Admin@Example.com')
    expect(first.status).toBe(201)
    const setCookie = first.headers.get('set-cookie')!
    expect(setCookie).toStartWith('votelist_session=')
    expect(setCookie).toContain('HttpOnly')
    expect(setCookie).toContain('SameSite=Lax')
    expect(setCookie).toContain('Path=/')
    expect(setCookie).toContain(`Max-Age=${SESSION_TTL_MS / 1000}`)
    expect(setCookie).not.toContain('Secure')
    const body = await first.json()
    expect(body).toEqual({ ok: true, user: { id: expect.any(String), email: 'Admin@Example.com', isAdmin: true, createdAt: new Date(rt.clock.now()).toISOString() } })
    expect(await json(await me(app, cookieOf(first)))).toEqual({ status: 200, body })

    const second = await register(app, 'owner@example.com')
    expect(second.status).toBe(201)
    expect((await second.json()).user.isAdmin).toBe(false)
    // The password is kept only as an argon2id hash.
    const stored = rt.db.query('SELECT password_hash AS h FROM user WHERE email_key = ?').get('owner@example.com') as { h: string }
    expect(stored.h).toStartWith('$argon2id$')
  })

  test('behind https the cookie is Secure and __Host- prefixed, and it works', async () => {
    const rt = testRuntime({ site: { base_url: 'https://vote.example.org' } })
    const app = await testApp(rt)
    const r = await register(app, 'a@example.com')
    const setCookie = r.headers.get('set-cookie')!
    expect(setCookie).toStartWith('__Host-votelist_session=')
    expect(setCookie).toContain('Secure')
    expect(setCookie).toContain('Path=/')
    expect(setCookie).not.toContain('Domain')
    expect((await me(app, cookieOf(r))).status).toBe(200)
  })

  test('every bad input is a 400 naming the field; a taken e-mail address (any case) is 409', async () => {
    const app = await testApp(testRuntime({ accounts: { login_attempts_per_minute: 100 } }))
    expect((await register(app, 'taken@example.com')).status).toBe(201)
    const cases: [unknown, string, string][] = [
      [{ email: 'not-an-address', password }, 'email', 'email must be a valid e-mail address'],
      [{ email: 'a@example.com', password: 'short' }, 'password', 'password must be 8 to 256 characters long'],
      [{ email: 'a@example.com', password: 'x'.repeat(257) }, 'password', 'password is required: a string of at most 256 characters'],
      // Eight or more characters, all of them blank or invisible: spaces, tabs, newlines, a
      // no-break space, zero-width spaces.
      ...[' '.repeat(8), ' \t\n \r\n\t ', '\u00a0'.repeat(12), '\u200b'.repeat(8), ' '.repeat(256)].map((pw): [unknown, string, string] =>
        [{ email: 'a@example.com', password: pw }, 'password', 'password must not be only whitespace: use at least one visible character']),
      [{ email: 'a@example.com' }, 'password', 'password is required: a string of at most 256 characters'],
      [{ password }, 'email', 'email is required: an e-mail address of at most 254 characters'],
      [{ email: 'a@example.com', password, admin: true }, 'admin', 'admin is not a field of this request (known: email, password)'],
    ]
    for (const [body, field, message] of cases) {
      expect(await json(await call(app, 'POST', '/api/v1/auth/register', { body }))).toEqual({
        status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message, field } },
      })
    }
    expect(await json(await register(app, 'TAKEN@example.com'))).toEqual({
      status: 409, body: { ok: false, error: { code: 'CONFLICT', message: 'this e-mail address is already registered', field: 'email' } },
    })
    // Spaces around or inside a real password are kept as typed.
    expect((await register(app, 'spaces@example.com', '  pass word  ')).status).toBe(201)
    expect((await login(app, 'spaces@example.com', '  pass word  ')).status).toBe(200)
  })

  test('GET /api/v1/auth/status tells the dashboard whether to set up the admin and whether sign-up is open', async () => {
    const app = await testApp(testRuntime())
    expect(await json(await call(app, 'GET', '/api/v1/auth/status'))).toEqual({ status: 200, body: { ok: true, setupNeeded: true, registrationOpen: true } })
    await register(app, 'admin@example.com')
    expect((await json(await call(app, 'GET', '/api/v1/auth/status'))).body).toEqual({ ok: true, setupNeeded: false, registrationOpen: true })
  })

  test('with open_registration = false only the very first account can sign up', async () => {
    const app = await testApp(testRuntime({ accounts: { open_registration: false } }))
    expect((await json(await call(app, 'GET', '/api/v1/auth/status'))).body).toEqual({ ok: true, setupNeeded: true, registrationOpen: true })
    const first = await register(app, 'admin@example.com')
    expect(first.status).toBe(201)
    expect((await first.json()).user.isAdmin).toBe(true)
    const r = await json(await register(app, 'someone@example.com'))
    expect(r).toEqual({ status: 403, body: error('FORBIDDEN', 'REGISTRATION_CLOSED') })
    expect(r.body.error.message).toContain('registration is closed')
    expect((await login(app, 'someone@example.com')).status).toBe(401)
    expect((await json(await call(app, 'GET', '/api/v1/auth/status'))).body).toEqual({ ok: true, setupNeeded: false, registrationOpen: false })
  })
})

describe('login and sessions', () => {
  test('right credentials (e-mail in any case) log in; wrong ones are 401 with one message for both cases', async () => {
    const app = await testApp(testRuntime())
    await register(app, 'owner@example.com')
    const ok = await login(app, 'OWNER@example.com')
    expect(ok.status).toBe(200)
    expect((await ok.json()).user.email).toBe('owner@example.com')
    expect((await me(app, cookieOf(ok))).status).toBe(200)
    const wrong = await json(await login(app, 'owner@example.com', 'wrong password'))
    const unknown = await json(await login(app, 'nobody@example.com'))
    expect(wrong).toEqual({ status: 401, body: { ok: false, error: { code: 'UNAUTHENTICATED', message: 'wrong e-mail address or password' } } })
    expect(unknown).toEqual(wrong)
  })

  test('GET /api/v1/me without a cookie, with a forged, tampered or expired one: 401', async () => {
    const rt = testRuntime()
    const app = await testApp(rt)
    const cookie = cookieOf(await register(app, 'owner@example.com'))
    const token = cookie.split('=')[1]
    const [h, p, s] = token.split('.')
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString())
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('not the site secret, 32 bytes!!!'))
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`
    const tampered = [h, Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 86400 })).toString('base64url'), s].join('.')
    const unauthenticated = { status: 401, body: error('UNAUTHENTICATED') }
    expect(await json(await call(app, 'GET', '/api/v1/me'))).toEqual(unauthenticated)
    for (const bad of [forged, unsigned, tampered, 'garbage']) {
      expect(await json(await me(app, `votelist_session=${bad}`))).toEqual(unauthenticated)
    }
    expect((await me(app, cookie)).status).toBe(200)
    rt.clock.advance(SESSION_TTL_MS + 1)
    expect(await json(await me(app, cookie))).toEqual(unauthenticated)
  })

  test('logout revokes the session: the old cookie is refused, also after a restart', async () => {
    const config = testConfig()
    const rt = sqliteSite(config, { clock: manualClock(), log: memoryLogger() })
    const app = await createApp(rt)
    await register(app, 'owner@example.com')
    const cookie = cookieOf(await login(app, 'owner@example.com'))
    const other = cookieOf(await login(app, 'owner@example.com'))
    const out = await call(app, 'POST', '/api/v1/auth/logout', { headers: { cookie } })
    expect(await out.clone().json()).toEqual({ ok: true })
    expect(out.headers.get('set-cookie')).toMatch(/^votelist_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax/)
    expect((await me(app, cookie)).status).toBe(401)
    expect((await me(app, other)).status).toBe(200) // only that session ended
    // Logging out again, or without any session, is harmless.
    expect((await call(app, 'POST', '/api/v1/auth/logout', { headers: { cookie } })).status).toBe(200)
    expect((await call(app, 'POST', '/api/v1/auth/logout')).status).toBe(200)
    rt.db.close()
    const restarted = await createApp(sqliteSite(config, { clock: manualClock(), log: memoryLogger() }))
    expect((await me(restarted, cookie)).status).toBe(401)
    expect((await me(restarted, other)).status).toBe(200)
  })

  test('a login in a browser that holds a session ends that session, whichever account it was; a failed login leaves it alone', async () => {
    const app = await testApp(testRuntime())
    const first = cookieOf(await register(app, 'admin@example.com'))
    await register(app, 'owner@example.com')
    expect((await login(app, 'owner@example.com', 'wrong password', { cookie: first })).status).toBe(401)
    expect((await me(app, first)).status).toBe(200)
    // The same account again: the old cookie (copied elsewhere, say) no longer works.
    const again = cookieOf(await login(app, 'admin@example.com', password, { cookie: first }))
    expect((await me(app, first)).status).toBe(401)
    // Another account: the administrator's session does not outlive the owner's login.
    const owner = cookieOf(await login(app, 'owner@example.com', password, { cookie: again }))
    expect((await me(app, again)).status).toBe(401)
    expect((await json(await me(app, owner))).body.user.email).toBe('owner@example.com')
    // A sign-up in a logged-in browser too.
    const third = cookieOf(await register(app, 'third@example.com', password, { cookie: owner }))
    expect((await me(app, owner)).status).toBe(401)
    expect((await me(app, third)).status).toBe(200)
  })

  test('a cross-site Origin is refused (403) on register, login and logout; the site\'s own Origin passes', async () => {
    const app = await testApp(testRuntime())
    const evil = { origin: 'https://evil.example' }
    expect(await json(await register(app, 'a@example.com', password, evil))).toEqual({ status: 403, body: error('FORBIDDEN', 'CROSS_SITE') })
    expect((await login(app, 'a@example.com')).status).toBe(401) // nothing was created
    const r = await register(app, 'a@example.com', password, { origin: 'http://localhost:8080' })
    expect(r.status).toBe(201)
    const cookie = cookieOf(r)
    expect((await login(app, 'a@example.com', password, evil)).status).toBe(403)
    expect((await call(app, 'POST', '/api/v1/auth/logout', { headers: { cookie, ...evil } })).status).toBe(403)
    expect((await me(app, cookie)).status).toBe(200) // the refused logout did not end the session
  })
})

describe('login limits', () => {
  test('per client address: attempts over login_attempts_per_minute get 429 with Retry-After until the window moves', async () => {
    const rt = testRuntime({ http: { trust_proxy: true }, accounts: { login_attempts_per_minute: 3 } })
    const app = await testApp(rt)
    await register(app, 'owner@example.com', password, { 'x-forwarded-for': '198.51.100.1' })
    const from = (ip: string) => ({ 'x-forwarded-for': ip })
    const a = '203.0.113.7'
    const first = await login(app, 'owner@example.com', 'wrong password', from(a))
    expect(first.status).toBe(401)
    expect(first.headers.get('ratelimit-limit')).toBe('3')
    expect(first.headers.get('ratelimit-remaining')).toBe('2')
    expect((await login(app, 'owner@example.com', 'wrong password', from(a))).status).toBe(401)
    expect((await login(app, 'owner@example.com', password, from(a))).status).toBe(200)
    rt.clock.advance(10_000)
    const limited = await login(app, 'owner@example.com', password, from(a))
    expect(await limited.clone().json()).toEqual(error('RATE_LIMITED'))
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('50')
    // Registration counts against the same budget.
    expect((await register(app, 'new@example.com', password, from(a))).status).toBe(429)
    // Another address is not affected; the first one recovers once a minute has passed.
    expect((await login(app, 'owner@example.com', password, from('203.0.113.8'))).status).toBe(200)
    rt.clock.advance(50_000)
    expect((await login(app, 'owner@example.com', password, from(a))).status).toBe(200)
  })

  test('a malformed attempt (400) counts too and carries the RateLimit headers', async () => {
    const rt = testRuntime({ http: { trust_proxy: true }, accounts: { login_attempts_per_minute: 2 } })
    const app = await testApp(rt)
    const from = { 'x-forwarded-for': '203.0.113.9' }
    const noPassword = await call(app, 'POST', '/api/v1/auth/login', { body: { email: 'owner@example.com' }, headers: from })
    expect(noPassword.status).toBe(400)
    expect([noPassword.headers.get('ratelimit-limit'), noPassword.headers.get('ratelimit-remaining')]).toEqual(['2', '1'])
    const extraField = await call(app, 'POST', '/api/v1/auth/login', { body: { email: 'owner@example.com', password, admin: true }, headers: from })
    expect([extraField.status, extraField.headers.get('ratelimit-remaining')]).toEqual([400, '0'])
    expect((await login(app, 'owner@example.com', password, from)).status).toBe(429)
  })

  test('per account: after failed_logins_per_account failures from anywhere, that account gets 429 for 15 minutes', async () => {
    const rt = testRuntime({ http: { trust_proxy: true }, accounts: { failed_logins_per_account: 3 } })
    const app = await testApp(rt)
    await register(app, 'owner@example.com')
    await register(app, 'other@example.com')
    for (let i = 1; i <= 3; i++) {
      expect((await login(app, 'Owner@Example.com', 'wrong password', { 'x-forwarded-for': `203.0.113.${i}` })).status).toBe(401)
    }
    // Even the right password is refused now, from a fresh address, before any hash is checked.
    const locked = await login(app, 'owner@example.com', password, { 'x-forwarded-for': '198.51.100.9' })
    expect(locked.status).toBe(429)
    expect(await locked.json()).toEqual(error('RATE_LIMITED'))
    expect(locked.headers.get('retry-after')).toBe('900')
    expect((await login(app, 'other@example.com', password, { 'x-forwarded-for': '198.51.100.9' })).status).toBe(200)
    rt.clock.advance(15 * 60_000)
    expect((await login(app, 'owner@example.com', password, { 'x-forwarded-for': '198.51.100.9' })).status).toBe(200)
  })

  test('unknown accounts are limited the same way (no hint about which addresses exist)', async () => {
    const app = await testApp(testRuntime({ accounts: { failed_logins_per_account: 2, login_attempts_per_minute: 100 } }))
    for (let i = 0; i < 2; i++) expect((await login(app, 'ghost@example.com')).status).toBe(401)
    expect((await login(app, 'ghost@example.com')).status).toBe(429)
  })

  test('password hashes are bounded: a burst beyond hash_concurrency × 9 gets 429 at once, the rest is answered', async () => {
    const rt = testRuntime({ accounts: { hash_concurrency: 1, login_attempts_per_minute: 1000, failed_logins_per_account: 1000 } })
    const app = await testApp(rt)
    await register(app, 'owner@example.com')
    const answers = await Promise.all(Array.from({ length: 30 }, () => login(app, 'owner@example.com', 'wrong password')))
    const statuses = answers.map((r) => r.status)
    // One hashing, eight waiting: the other 21 are refused without queueing.
    expect(statuses.filter((s) => s === 401).length).toBe(9)
    expect(statuses.filter((s) => s === 429).length).toBe(21)
    const refused = answers.find((r) => r.status === 429)!
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(rt.hashGate.load).toEqual({ running: 0, waiting: 0 })
    expect((await login(app, 'owner@example.com')).status).toBe(200)
  })
})

describe('admin: accounts', () => {
  test('an admin lists every account with its server count; others get 403, strangers 401', async () => {
    const rt = testRuntime()
    const app = await testApp(rt)
    const admin = await ownerSession(rt, 'admin@example.com')
    const owner = await ownerSession(rt, 'owner@example.com')
    const r = await json(await call(app, 'GET', '/api/v1/admin/users', { headers: admin.headers }))
    expect(r).toEqual({
      status: 200,
      body: {
        ok: true,
        users: [
          { id: admin.user.id, email: 'admin@example.com', isAdmin: true, createdAt: expect.any(String), disabled: false, servers: 0 },
          { id: owner.user.id, email: 'owner@example.com', isAdmin: false, createdAt: expect.any(String), disabled: false, servers: 0 },
        ],
      },
    })
    expect(JSON.stringify(r.body)).not.toContain('argon2')
    expect(await json(await call(app, 'GET', '/api/v1/admin/users', { headers: owner.headers }))).toEqual({ status: 403, body: error('FORBIDDEN', 'ADMINS_ONLY') })
    expect((await call(app, 'GET', '/api/v1/admin/users')).status).toBe(401)
  })
})
