import { Elysia } from 'elysia'
import { limitByAddress, publicRateLimit, type PublicLimitDeps } from '../http/public-limit.ts'
import type { RateLimiter } from '../http/rate-limit.ts'
import { refuseUnknownFields } from '../http/strict-body.ts'
import { ownerAuth } from './guard.ts'
import { AuthStatus, Credentials, Ok, UserAnswer, UserList, userJson } from './schema.ts'
import { logIn, registerUser, type LoginDeps } from './service.ts'
import { endSession, SESSION_TTL_MS, sessionCookieAttributes, sessionCookieName, startSession, type SessionDeps } from './session.ts'

export type AccountRoutesDeps = LoginDeps & SessionDeps & PublicLimitDeps & {
  limits: { login: RateLimiter }
}

type Cookies = Record<string, { value?: unknown; set(c: Record<string, unknown>): unknown }>

const tags = ['Owner: account']

// Registration, login, logout and the current user; plus the admin's list of accounts.
export function accountRoutes(rt: AccountRoutesDeps) {
  const name = sessionCookieName(rt.config)
  const openSession = async (cookie: Cookies, userId: string) => {
    const { token } = await startSession(rt, userId)
    cookie[name].set({ value: token, ...sessionCookieAttributes(rt.config, SESSION_TTL_MS / 1000) })
  }
  // Every login or sign-up attempt counts against its client address, before any hash is spent
  // and before the body is checked (a malformed attempt counts too).
  const loginLimit = limitByAddress(rt, rt.limits.login)

  return new Elysia({ name: 'accounts.routes' })
    .use(ownerAuth(rt))
    .use(publicRateLimit(rt))
    .get('/api/v1/auth/status', async () => {
      const setupNeeded = (await rt.store.users.count()) === 0
      return { ok: true as const, setupNeeded, registrationOpen: setupNeeded || rt.config.accounts.open_registration }
    }, {
      publicLimited: true,
      response: { 200: AuthStatus },
      detail: {
        summary: 'Can I sign up?', tags,
        description: '`setupNeeded`: no account exists yet, so the next registration creates the administrator. `registrationOpen`: POST /api/v1/auth/register will accept a new account. Public; limited like the public API.',
      },
    })
    .post('/api/v1/auth/register', async ({ body, cookie, set }) => {
      const user = await registerUser(rt, body)
      await openSession(cookie as Cookies, user.id)
      set.status = 201
      return { ok: true as const, user: userJson(user) }
    }, {
      body: Credentials, transform: [loginLimit, refuseUnknownFields(Credentials)], sameOrigin: true,
      response: { 201: UserAnswer },
      detail: {
        summary: 'Create an account', tags,
        description: 'Creates a server-owner account and logs it in (sets the session cookie). The first account of the site becomes its administrator. With `accounts.open_registration = false` only that first account can be created here (403 otherwise). Password: 8 to 256 characters, not only whitespace (400 naming `password`). 409 when the e-mail address is taken. Counts against the login rate limit of the client address.',
      },
    })
    .post('/api/v1/auth/login', async ({ body, cookie }) => {
      const user = await logIn(rt, body.email, body.password)
      await openSession(cookie as Cookies, user.id)
      return { ok: true as const, user: userJson(user) }
    }, {
      body: Credentials, transform: [loginLimit, refuseUnknownFields(Credentials)], sameOrigin: true,
      response: { 200: UserAnswer },
      detail: {
        summary: 'Log in', tags,
        description: 'Checks e-mail and password and sets the session cookie (HttpOnly, SameSite=Lax, 30 days; `__Host-` prefixed and Secure when site.base_url is https). Wrong credentials: 401. Rate limits: `accounts.login_attempts_per_minute` per client address, `accounts.failed_logins_per_account` failures per account in 15 minutes; both answer 429 with Retry-After.',
      },
    })
    .post('/api/v1/auth/logout', async ({ cookie }) => {
      await endSession(rt, cookie[name]?.value as string | undefined)
      ;(cookie as Cookies)[name].set({ value: '', ...sessionCookieAttributes(rt.config, 0) })
      return { ok: true as const }
    }, {
      sameOrigin: true,
      response: { 200: Ok },
      detail: {
        summary: 'Log out', tags,
        description: 'Ends the session for good (the server-side session row is revoked, so the old cookie stays refused even after a restart) and clears the cookie. Answers 200 also without a session.',
      },
    })
    .get('/api/v1/me', ({ user }) => ({ ok: true as const, user: userJson(user) }), {
      owner: true,
      response: { 200: UserAnswer },
      detail: { summary: 'The logged-in account', tags, description: '401 UNAUTHENTICATED without a valid session.' },
    })
    .get('/api/v1/admin/users', async () => ({
      ok: true as const,
      users: (await rt.store.users.listWithServerCounts()).map((u) => ({ ...userJson(u), servers: u.servers })),
    }), {
      admin: true,
      response: { 200: UserList },
      detail: { summary: 'All accounts (admin)', tags: ['Admin'], description: 'Every account, oldest first, with the number of servers it owns. Administrators only (403 otherwise).' },
    })
}
