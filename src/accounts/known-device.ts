import { createHmac } from 'node:crypto'
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
// The cookie also carries a stamp of the account's password as it was then: a password reset ends
// every device cookie issued before it (someone who knew the old password, and logged in with it
// as many times as they liked, would otherwise keep a year of guesses at the new one, each
// cookie with a count of its own, none of them ever locking the account). The browser that made
// the reset gets a fresh one.

export const DEVICE_TTL_MS = 365 * 24 * 3600_000

export const deviceCookieName = (siteUrl: SiteUrl) => (siteUrl.secure ? '__Host-votelist_device' : 'votelist_device')

export interface KnownDevice {
  id: string
  // The emailKey of the account it logged in to.
  account: string
  // The credentialStamp of that account's password then.
  credential: string
}

// Names the account's password as it is now and tells nothing of it: an HMAC, under the site's
// secret, of its hash (a new password is a new hash, as argon2id salts each one).
export const credentialStamp = (secret: Uint8Array, passwordHash: string) =>
  createHmac('sha256', secret).update(`device:${passwordHash}`).digest('base64url').slice(0, 22)

// Whether this device cookie exempts its browser from the lock of the account `account` names
// (its emailKey), whose password hash is `passwordHash`.
export const knownTo = (secret: Uint8Array, device: KnownDevice | null, account: string, passwordHash: string | undefined) =>
  device !== null && passwordHash !== undefined && device.account === account && device.credential === credentialStamp(secret, passwordHash)

export function issueDevice(deps: Pick<SessionDeps, 'clock' | 'secret'>, email: string, credential: string): Promise<string> {
  const now = deps.clock.now()
  return new SignJWT({ typ: 'device', acc: emailKey(email), cred: credential })
    .setProtectedHeader({ alg: 'HS256' })
    .setJti(newId())
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + DEVICE_TTL_MS) / 1000))
    .sign(deps.secret)
}

// The device a cookie names, or null if it is absent, forged, expired or another kind of token
// (a session's has no `typ`). One issued before the stamp existed has none: it fits no account.
export async function knownDevice(deps: Pick<SessionDeps, 'clock' | 'secret'>, token: unknown): Promise<KnownDevice | null> {
  if (typeof token !== 'string' || token === '') return null
  try {
    const { payload } = await jwtVerify(token, deps.secret, { algorithms: ['HS256'], currentDate: new Date(deps.clock.now()) })
    if (payload.typ !== 'device' || typeof payload.acc !== 'string' || typeof payload.jti !== 'string') return null
    return { id: payload.jti, account: payload.acc, credential: typeof payload.cred === 'string' ? payload.cred : '' }
  } catch {
    return null
  }
}
