import { jwtVerify, SignJWT } from 'jose'
import type { SiteUrl } from '../http/site-url.ts'
import { newId } from '../ids.ts'
import { emailKey } from './repo.ts'
import type { SessionDeps } from './session.ts'

// A browser that has logged in to an account before: a signed cookie set by every login (and
// sign-up, and password reset) that names the account's address and a random device id. The
// per-account lock on failed logins does not apply to it (its own failures count against the
// device alone): otherwise anyone who knows an address could keep its owner locked out for good
// with a few wrong passwords every 15 minutes. (OWASP's "device cookies".)

export const DEVICE_TTL_MS = 365 * 24 * 3600_000

export const deviceCookieName = (siteUrl: SiteUrl) => (siteUrl.secure ? '__Host-votelist_device' : 'votelist_device')

export interface KnownDevice {
  id: string
  // The emailKey of the account it logged in to.
  account: string
}

export function issueDevice(deps: Pick<SessionDeps, 'clock' | 'secret'>, email: string): Promise<string> {
  const now = deps.clock.now()
  return new SignJWT({ typ: 'device', acc: emailKey(email) })
    .setProtectedHeader({ alg: 'HS256' })
    .setJti(newId())
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + DEVICE_TTL_MS) / 1000))
    .sign(deps.secret)
}

// The device a cookie names, or null if it is absent, forged, expired or another kind of token
// (a session's has no `typ`).
export async function knownDevice(deps: Pick<SessionDeps, 'clock' | 'secret'>, token: unknown): Promise<KnownDevice | null> {
  if (typeof token !== 'string' || token === '') return null
  try {
    const { payload } = await jwtVerify(token, deps.secret, { algorithms: ['HS256'], currentDate: new Date(deps.clock.now()) })
    if (payload.typ !== 'device' || typeof payload.acc !== 'string' || typeof payload.jti !== 'string') return null
    return { id: payload.jti, account: payload.acc }
  } catch {
    return null
  }
}
