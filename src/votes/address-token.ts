import { invalidParameter } from '../http/errors.ts'
import { hmacSha256 } from '../ids.ts'
import { ipFamily, plainAddress } from '../net/ip.ts'

// Dual-stack capture: the vote page asks the site's IPv4-only and IPv6-only hosts
// (site.ipv4_url / site.ipv6_url) for a token that binds the address the request came from,
// and sends the tokens with the vote, so the vote records the player's address in both
// families. A token is `base64url(address "|" expiry ms) "." base64url(HMAC-SHA256)`, keyed with
// a key derived from the site secret. It can only ADD an address to the voter's own vote (which
// makes the interval stricter for them), so a token shared or replayed within its lifetime
// gains nothing; it is still refused once expired, forged, or of the wrong family.

export const ADDRESS_TOKEN_TTL_MS = 10 * 60_000

const keys = new WeakMap<Uint8Array, Buffer>()
function keyOf(secret: Uint8Array): Buffer {
  let k = keys.get(secret)
  if (!k) {
    k = hmacSha256(secret, 'votelist dual-stack address token')
    keys.set(secret, k)
  }
  return k
}

const sign = (secret: Uint8Array, body: string) => hmacSha256(keyOf(secret), body)

export interface AddressToken {
  token: string
  address: string
  family: 4 | 6
  expiresAt: number
}

export function issueAddressToken(secret: Uint8Array, address: string, now: number): AddressToken {
  const family = ipFamily(address)
  if (!family) throw new Error(`not an IP address: ${address}`)
  const text = plainAddress(address)
  const expiresAt = now + ADDRESS_TOKEN_TTL_MS
  const body = Buffer.from(`${text}|${expiresAt}`).toString('base64url')
  return { token: `${body}.${sign(secret, body).toString('base64url')}`, address: text, family, expiresAt }
}

// The address a token vouches for; throws INVALID_PARAMETER naming `field` when the token is
// forged, expired or carries an address of another family than `family`.
export function readAddressToken(secret: Uint8Array, token: string, family: 4 | 6, now: number, field: string): string {
  const [body, mac, extra] = token.split('.')
  const given = mac ? Buffer.from(mac, 'base64url') : Buffer.alloc(0)
  const expected = body ? sign(secret, body) : Buffer.alloc(32)
  if (extra !== undefined || !body || given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    throw invalidParameter(`${field} is not a token issued by this site`, field)
  }
  const [address, exp] = Buffer.from(body, 'base64url').toString().split('|')
  if (!(Number(exp) > now)) throw invalidParameter(`${field} expired: reload the vote page`, field)
  if (ipFamily(address) !== family) throw invalidParameter(`${field} does not carry an IPv${family} address`, field)
  return address
}
