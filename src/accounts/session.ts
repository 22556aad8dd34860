import { jwtVerify, SignJWT } from 'jose'
import type { Clock } from '../clock.ts'
import { unauthenticated } from '../http/errors.ts'
import type { SiteUrl } from '../http/site-url.ts'
import { newId } from '../ids.ts'
import type { Scheduler } from '../jobs/scheduler.ts'
import { publicUser, type PasswordResetsRepo, type SessionsRepo, type User, type UsersRepo } from './repo.ts'

// A session is a row (so logout and revocation survive restarts) named by a jose-signed token
// in an HttpOnly cookie. The signature keeps forged or tampered cookies from even reaching the
// database; the row decides whether the session is still alive.

export const SESSION_TTL_MS = 30 * 24 * 3600_000

export interface SessionDeps {
  clock: Clock
  siteUrl: SiteUrl
  store: { users: UsersRepo; sessions: SessionsRepo }
  secret: Uint8Array
}

// Behind https the cookie takes the __Host- prefix: Secure, Path=/, no Domain, so no subdomain
// can plant or read it.
export const sessionCookieName = (siteUrl: SiteUrl) => (siteUrl.secure ? '__Host-votelist_session' : 'votelist_session')

export function sessionCookieAttributes(siteUrl: SiteUrl, maxAgeSeconds: number) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: siteUrl.secure, path: '/', maxAge: maxAgeSeconds }
}

// `verified`: the password hash the login checked (or the sign-up or reset set). The session is
// written only if the account still has it and is not disabled, in one statement that waits for
// a reset or a disabling under way: a login that checked the old password while a reset was
// being made would otherwise open a session after the reset had ended the others, and keep it.
// Refused: 401, as the password it checked is no longer the account's.
export async function startSession(deps: SessionDeps, userId: string, verified?: string): Promise<{ token: string; expiresAt: number }> {
  const now = deps.clock.now()
  const sid = newId()
  const expiresAt = now + SESSION_TTL_MS
  const session = { id: sid, userId, createdAt: now, expiresAt }
  if (verified === undefined) await deps.store.sessions.insert(session)
  else if (!(await deps.store.sessions.insertIfCurrent(session, verified))) throw unauthenticated('wrong e-mail address or password')
  const token = await new SignJWT({ sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(deps.secret)
  return { token, expiresAt }
}

async function sessionIdOf(deps: SessionDeps, token: string): Promise<{ sid: string; userId: string } | null> {
  try {
    const { payload } = await jwtVerify(token, deps.secret, { algorithms: ['HS256'], currentDate: new Date(deps.clock.now()) })
    if (typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return null
    return { sid: payload.sid, userId: payload.sub }
  } catch {
    return null
  }
}

// The user behind a session token, or null if the token is forged, expired or logged out.
export async function userOfSession(deps: SessionDeps, token: string | undefined): Promise<User | null> {
  if (!token) return null
  const ids = await sessionIdOf(deps, token)
  if (!ids) return null
  const row = await deps.store.sessions.active(ids.sid, deps.clock.now())
  if (!row || row.userId !== ids.userId) return null
  const user = await deps.store.users.byId(row.userId)
  // Disabling an account also revokes its sessions; this check holds even for a session row
  // written in the same instant.
  return user && !user.disabled ? publicUser(user) : null
}

export async function endSession(deps: SessionDeps, token: string | undefined): Promise<void> {
  const ids = token ? await sessionIdOf(deps, token) : null
  if (ids) await deps.store.sessions.revoke(ids.sid, deps.clock.now())
}

// Expired sessions are useless even to an audit, and so are expired reset links: purged every hour.
export function registerSessionWork(scheduler: Scheduler, deps: { store: { sessions: SessionsRepo; passwordResets: PasswordResetsRepo } }): void {
  scheduler.every('sessions.purge', 3600_000, async (now) => {
    await deps.store.sessions.purgeExpired(now)
    await deps.store.passwordResets.purgeExpired(now)
  }, { title: 'Expired sessions and reset links purge', once: true })
}
