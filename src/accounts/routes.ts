import { Elysia } from 'elysia'
import { limitByAddress, publicRateLimit, type PublicLimitDeps } from '../http/public-limit.ts'
import type { RateLimiter } from '../http/rate-limit.ts'
import { errorAnswer } from '../http/schema.ts'
import { refuseUnknownFields } from '../http/strict-body.ts'
import { ownerAuth } from './guard.ts'
import { credentialStamp, DEVICE_TTL_MS, deviceCookieName, issueDevice, knownDevice } from './known-device.ts'
import { resetPassword, type ResetDeps } from './password-reset.ts'
import { AuthStatus, Credentials, Invalid, Ok, ResetBody, SessionErrors, UserAnswer, userJson } from './schema.ts'
import { logIn, registerUser, type Entry, type LoginDeps } from './service.ts'
import { endSession, SESSION_TTL_MS, sessionCookieAttributes, sessionCookieName, startSession, type SessionDeps } from './session.ts'

export type AccountRoutesDeps = LoginDeps & ResetDeps & SessionDeps & PublicLimitDeps & {
  limits: { login: RateLimiter }
}

type Cookies = Record<string, { value?: unknown; set(c: Record<string, unknown>): unknown }>

const tags = ['Owner: account']
const LoginLimited = errorAnswer('RATE_LIMITED: over the login limit of the client address; Retry-After says when to try again.')

// Registration, login, logout, a password reset by link, and the current user.
export function accountRoutes(rt: AccountRoutesDeps) {
  const name = sessionCookieName(rt.siteUrl)
  const deviceName = deviceCookieName(rt.siteUrl)
  // The session, then the device cookie that exempts this browser from the account's lock. The
  // session the browser held, of whichever account, ends: the new one replaces it, and a copy of
  // the old cookie must not outlive it (as after a logout).
  const openSession = async (cookie: Cookies, { user, passwordHash }: Entry) => {
    const { token } = await startSession(rt, user.id, passwordHash)
    await endSession(rt, cookie[name]?.value as string | undefined)
    cookie[name].set({ value: token, ...sessionCookieAttributes(rt.siteUrl, SESSION_TTL_MS / 1000) })
    const previous = await knownDevice(rt, cookie[deviceName]?.value)
    const device = await issueDevice(rt, previous, user.email, credentialStamp(rt.secret, passwordHash))
    cookie[deviceName].set({ value: device, ...sessionCookieAttributes(rt.siteUrl, DEVICE_TTL_MS / 1000) })
    return user
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
      response: { 200: AuthStatus, 429: errorAnswer('RATE_LIMITED: over limits.public_per_minute (120 a minute per client address by default); Retry-After says when to try again.') },
      detail: {
        summary: 'Can I sign up?', tags,
        description: '`setupNeeded`: no account exists yet, so the next registration creates the administrator. `registrationOpen`: POST /api/v1/auth/register will accept a new account. Public; limited like the public API.',
      },
    })
    .post('/api/v1/auth/register', async ({ body, cookie, set }) => {
      const user = await openSession(cookie as Cookies, await registerUser(rt, body))
      set.status = 201
      return { ok: true as const, user: userJson(user) }
    }, {
      body: Credentials, transform: [loginLimit, refuseUnknownFields(Credentials)], sameOrigin: true,
      response: {
        201: UserAnswer, ...Invalid('email or password missing or breaking the rules, an unknown field, or a body that is not a JSON object or a form'),
        403: errorAnswer('FORBIDDEN: registration is closed (reason REGISTRATION_CLOSED), or the request came from another site (CROSS_SITE).'),
        409: errorAnswer('CONFLICT: the e-mail address is taken (`field`: "email").'), 429: LoginLimited,
      },
      detail: {
        summary: 'Create an account', tags,
        description: 'Creates a server-owner account and logs it in (sets the session cookie). The first account of the site becomes its administrator. With `accounts.open_registration = false` only that first account can be created here (403 otherwise). Password: 8 to 256 characters, not only whitespace (400 naming `password`). 409 when the e-mail address is taken. Counts against the login rate limit of the client address.',
      },
    })
    .post('/api/v1/auth/login', async ({ body, cookie }) => {
      const user = await openSession(cookie as Cookies, await logIn(rt, body.email, body.password, await knownDevice(rt, cookie[deviceName]?.value)))
      return { ok: true as const, user: userJson(user) }
    }, {
      body: Credentials, transform: [loginLimit, refuseUnknownFields(Credentials)], sameOrigin: true,
      response: {
        200: UserAnswer, ...Invalid('email or password missing or too long, an unknown field, or a body that is not a JSON object or a form'),
        401: errorAnswer('UNAUTHENTICATED: wrong e-mail address or password.'),
        403: errorAnswer('FORBIDDEN: the account is disabled (`field`: "email"), or the request came from another site (CROSS_SITE).'), 429: LoginLimited,
      },
      detail: {
        summary: 'Log in', tags,
        description: 'Checks e-mail and password and sets the session cookie (HttpOnly, SameSite=Lax, 30 days; `__Host-` prefixed and Secure when site.base_url is https). The session the request\'s cookie named, if any (of any account), ends, as sign-up and reset do. Wrong credentials: 401. A disabled account (right password): 403 FORBIDDEN with `field: "email"`. Rate limits: `accounts.login_attempts_per_minute` per client address, `accounts.failed_logins_per_account` failures per account in 15 minutes; both answer 429 with Retry-After. Every login, sign-up and reset also sets the device cookie (`votelist_device`, signed, a year, same attributes): a browser that has logged in to the account before (one of its last five accounts) is not refused by that account\'s lock, only by its own failures, so others\' wrong passwords cannot lock the owner out. A password reset ends the device cookies issued before it (the browser that made it gets a new one).',
      },
    })
    .post('/api/v1/auth/logout', async ({ cookie }) => {
      await endSession(rt, cookie[name]?.value as string | undefined)
      ;(cookie as Cookies)[name].set({ value: '', ...sessionCookieAttributes(rt.siteUrl, 0) })
      return { ok: true as const }
    }, {
      sameOrigin: true,
      response: { 200: Ok, 403: SessionErrors[403] },
      detail: {
        summary: 'Log out', tags,
        description: 'Ends the session for good (the server-side session row is revoked, so the old cookie stays refused even after a restart) and clears the cookie. Answers 200 also without a session.',
      },
    })
    .get('/api/v1/me', ({ user }) => ({ ok: true as const, user: userJson(user) }), {
      owner: true,
      response: { 200: UserAnswer, 401: SessionErrors[401] },
      detail: { summary: 'The logged-in account', tags, description: '401 UNAUTHENTICATED without a valid session.' },
    })
    .post('/api/v1/auth/reset', async ({ body, cookie }) => {
      const user = await openSession(cookie as Cookies, await resetPassword(rt, body.token, body.password))
      return { ok: true as const, user: userJson(user) }
    }, {
      body: ResetBody, transform: [loginLimit, refuseUnknownFields(ResetBody)], sameOrigin: true,
      response: {
        200: UserAnswer,
        400: errorAnswer('INVALID_PARAMETER: the token is unknown, used, replaced or expired (`field`: "token"), or the password breaks the rules (`field`: "password").'),
        403: errorAnswer('FORBIDDEN: the account is disabled (the link stays unused), or the request came from another site.'),
        429: LoginLimited,
      },
      detail: {
        summary: 'Set a new password with a reset link', tags,
        description: 'Takes the token of a reset link an administrator made (POST /api/v1/admin/users/{id}/reset-link) and the new password (the sign-up rules: 8 to 256 characters, not only whitespace). Sets the password, uses the link up (it works once), ends every other session of the account, and every device cookie issued before (see POST /api/v1/auth/login), and logs it in here (sets the session and device cookies). An unknown, used, replaced or expired token (links last 24 hours): 400 naming `token`. A disabled account: 403, and the link stays unused. Counts against the login rate limit of the client address.',
      },
    })
}
