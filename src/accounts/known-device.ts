import { jwtVerify, SignJWT } from 'jose'
import type { SiteUrl } from '../http/site-url.ts'
import { hmacSha256, newId } from '../ids.ts'
import { emailKey } from './repo.ts'
import type { SessionDeps } from './session.ts'

// A browser that has logged in to an account before: a signed cookie set by every login (and
// sign-up, and password reset) that names the accounts it logged in to and a random device id. The
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

// One account this browser logged in to: its emailKey, the credentialStamp of its password then,
// and when (seconds): each is known for a year from its own login.
type DeviceLogin = [account: string, credential: string, at: number]

// A browser is known to the last few accounts it logged in to (an administrator with an owner
// account of their own keeps both), not only the latest.
const ACCOUNTS_PER_DEVICE = 5

export interface KnownDevice {
  id: string
  logins: DeviceLogin[]
}

// Names the account's password as it is now and tells nothing of it: an HMAC, under the site's
// secret, of its hash (a new password is a new hash, as argon2id salts each one).
export const credentialStamp = (secret: Uint8Array, passwordHash: string) =>
  hmacSha256(secret, `device:${passwordHash}`).toString('base64url').slice(0, 22)

// Whether this device cookie exempts its browser from the lock of the account `account` names
// (its emailKey), whose password hash is `passwordHash`.
export function knownTo(secret: Uint8Array, device: KnownDevice | null, account: string, passwordHash: string | undefined): boolean {
  if (device === null || passwordHash === undefined) return false
  const stamp = credentialStamp(secret, passwordHash)
  return device.logins.some(([acc, credential]) => acc === account && credential === stamp)
}

// Browsers drop a cookie over 4096 bytes, name and attributes included, without a word.
const MAX_TOKEN_LENGTH = 3800

// The cookie after a login to `email`: this login, and the browser's earlier ones to other
// accounts (`previous`, its cookie as sent) that are less than a year old, as many of the latest
// as fit (five addresses of 254 non-Latin characters would not).
export async function issueDevice(deps: Pick<SessionDeps, 'clock' | 'secret'>, previous: KnownDevice | null, email: string, credential: string): Promise<string> {
  const now = deps.clock.now()
  const at = Math.floor(now / 1000)
  const account = emailKey(email)
  let kept = (previous?.logins ?? []).filter(([acc, , when]) => acc !== account && when * 1000 + DEVICE_TTL_MS > now).slice(-(ACCOUNTS_PER_DEVICE - 1))
  for (;;) {
    const token = await new SignJWT({ typ: 'device', acc: [...kept, [account, credential, at]] })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(newId())
      .setIssuedAt(at)
      .setExpirationTime(Math.floor((now + DEVICE_TTL_MS) / 1000))
      .sign(deps.secret)
    if (token.length <= MAX_TOKEN_LENGTH || kept.length === 0) return token
    kept = kept.slice(1)
  }
}

const isLogin = (e: unknown): e is DeviceLogin =>
  Array.isArray(e) && e.length === 3 && typeof e[0] === 'string' && typeof e[1] === 'string' && typeof e[2] === 'number'

// The device a cookie names, or null if it is absent, forged, expired or another kind of token
// (a session's has no `typ`). One issued before the password stamp existed (its `acc` a single
// address) fits no account.
export async function knownDevice(deps: Pick<SessionDeps, 'clock' | 'secret'>, token: unknown): Promise<KnownDevice | null> {
  if (typeof token !== 'string' || token === '') return null
  try {
    const { payload } = await jwtVerify(token, deps.secret, { algorithms: ['HS256'], currentDate: new Date(deps.clock.now()) })
    if (payload.typ !== 'device' || !Array.isArray(payload.acc) || typeof payload.jti !== 'string') return null
    return { id: payload.jti, logins: payload.acc.filter(isLogin) }
  } catch {
    return null
  }
}
