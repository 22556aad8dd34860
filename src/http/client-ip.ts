import { ipKey, isIP, plainAddress } from '../net/ip.ts'

export interface SocketInfo {
  requestIP(request: Request): { address: string } | null
}

// An X-Forwarded-For entry as the address it names: some proxies write the client's port with it
// ("203.0.113.7:5678", "[2001:db8::1]:5678") or an IPv6 address in brackets. Null: not an address.
function forwardedAddress(entry: string): string | null {
  if (isIP(entry)) return entry
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(entry)
  if (bracketed) return isIP(bracketed[1]) === 6 ? bracketed[1] : null
  const v4 = /^([\d.]+):\d{1,5}$/.exec(entry)
  return v4 && isIP(v4[1]) === 4 ? v4[1] : null
}

// The voter's / caller's address: the socket's, or behind a trusted proxy the right-most
// X-Forwarded-For entry (the one the proxy itself appended; entries to its left are whatever
// the client claimed). Null when neither is known (e.g. a request handled in-process). An IPv4
// client seen through a dual-stack socket (::ffff:a.b.c.d) is its IPv4 address: the vote records,
// and pushes to Votifier, the address the owner's plugins know the player by.
export function clientAddress(request: Request, server: SocketInfo | null | undefined, trustProxy: boolean): string | null {
  if (trustProxy) {
    const xff = request.headers.get('x-forwarded-for')
    const last = xff?.split(',').map((s) => s.trim()).filter(Boolean).pop()
    const address = last ? forwardedAddress(last) : null
    if (address) return plainAddress(address)
  }
  const address = server?.requestIP(request)?.address
  return address ? plainAddress(address) : null
}

// The key a per-client rate limit counts under: the address (an IPv6 client per /64, so rotating
// addresses inside one subscriber prefix does not multiply the quota), or "unknown".
export function clientKey(request: Request, server: SocketInfo | null | undefined, trustProxy: boolean): string {
  return addressKey(clientAddress(request, server, trustProxy))
}

// clientKey of an address already read with clientAddress.
export const addressKey = (address: string | null): string => (address && ipKey(address)) ?? 'unknown'
