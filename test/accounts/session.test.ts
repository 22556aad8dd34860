import { afterAll, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { SignJWT } from 'jose'
import { ownerAuth } from '../../src/accounts/guard.ts'
import { createUser } from '../../src/accounts/service.ts'
import { endSession, SESSION_TTL_MS, sessionCookieName, startSession, userOfSession } from '../../src/accounts/session.ts'
import { errorHandler } from '../../src/http/error-handler.ts'
import { createSiteUrl } from '../../src/http/site-url.ts'
import { call, cleanupTemp, sqliteSite, testApp, testConfig, testRuntime } from '../helpers.ts'
import { manualClock } from '../../src/clock.ts'
import { memoryLogger } from '../../src/log.ts'

afterAll(cleanupTemp)

describe('sessions', () => {
  test('a token names a live session; logout ends it for good, also after a restart', async () => {
    const config = testConfig()
    const rt = sqliteSite(config, { clock: manualClock(), log: memoryLogger() })
    const user = await createUser(rt, { email: 'Owner@Example.com', password: 'correct horse battery' })
    expect(user.isAdmin).toBe(true)
    const { token } = await startSession(rt, user.id)
    expect(await userOfSession(rt, token)).toEqual(user)
    await endSession(rt, token)
    expect(await userOfSession(rt, token)).toBeNull()
    rt.db.close()
    const again = sqliteSite(config, { clock: manualClock(), log: memoryLogger() })
    expect(await userOfSession(again, token)).toBeNull()
  })

  test('expired, forged and tampered tokens are refused', async () => {
    const rt = testRuntime()
    const user = await createUser(rt, { email: 'a@example.com', password: 'correct horse battery' })
    const { token } = await startSession(rt, user.id)
    const forged = await new SignJWT({ sid: 'x' }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).sign(new Uint8Array(32))
    expect(await userOfSession(rt, forged)).toBeNull()
    const [h, p, s] = token.split('.')
    const body = JSON.parse(Buffer.from(p, 'base64url').toString())
    const tampered = [h, Buffer.from(JSON.stringify({ ...body, sub: 'someone-else' })).toString('base64url'), s].join('.')
    expect(await userOfSession(rt, tampered)).toBeNull()
    expect(await userOfSession(rt, 'not-a-token')).toBeNull()
    rt.clock.advance(SESSION_TTL_MS + 1000)
    expect(await userOfSession(rt, token)).toBeNull()
  })

  test('the cookie is __Host- prefixed behind https', () => {
    expect(sessionCookieName(createSiteUrl(testConfig()))).toBe('votelist_session')
    expect(sessionCookieName(createSiteUrl(testConfig({ site: { base_url: 'https://vote.example.org' } })))).toBe('__Host-votelist_session')
  })

  test('a base_url whose scheme is written in capitals (HTTPS://) is https too: the cookie is Secure and __Host- prefixed', async () => {
    const rt = testRuntime({ site: { base_url: 'HTTPS://vote.example.org' } })
    const r = await call(await testApp(rt), 'POST', '/api/v1/auth/register', { body: { email: 'a@example.com', password: 'correct horse battery' } })
    expect(r.status).toBe(201)
    const cookie = r.headers.get('set-cookie')!
    expect(cookie).toStartWith('__Host-votelist_session=')
    expect(cookie.split(/;\s*/)).toContain('Secure')
  })

  test('owner routes: 401 without a session, 403 for a cross-site Origin, 403 admin-only to others', async () => {
    const rt = testRuntime()
    const admin = await createUser(rt, { email: 'admin@example.com', password: 'correct horse battery' })
    const owner = await createUser(rt, { email: 'owner@example.com', password: 'correct horse battery' })
    const app = new Elysia().use(errorHandler(rt.log)).use(ownerAuth(rt))
      .get('/me', ({ user }) => ({ id: user.id }), { owner: true })
      .post('/me', ({ user }) => ({ id: user.id }), { owner: true })
      .post('/login', () => ({ ok: true }), { sameOrigin: true })
      .get('/admin', ({ user }) => ({ id: user.id }), { admin: true })
    const cookie = async (id: string) => `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, id)).token}`
    const ownerCookie = await cookie(owner.id)
    expect((await call(app, 'GET', '/me')).status).toBe(401)
    expect(await (await call(app, 'GET', '/me', { headers: { cookie: ownerCookie } })).json()).toEqual({ id: owner.id })
    expect((await call(app, 'POST', '/me', { headers: { cookie: ownerCookie, origin: 'https://evil.example' } })).status).toBe(403)
    expect((await call(app, 'POST', '/me', { headers: { cookie: ownerCookie, origin: 'http://localhost:8080' } })).status).toBe(200)
    expect((await call(app, 'POST', '/me', { headers: { cookie: ownerCookie } })).status).toBe(200)
    expect((await call(app, 'POST', '/login', { headers: { origin: 'https://evil.example' } })).status).toBe(403)
    expect((await call(app, 'GET', '/admin', { headers: { cookie: ownerCookie } })).status).toBe(403)
    expect((await call(app, 'GET', '/admin', { headers: { cookie: await cookie(admin.id) } })).status).toBe(200)
  })
})
