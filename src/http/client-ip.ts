import { ipKey, isIP } from '../net/ip.ts'

export interface SocketInfo {
  requestIP(request: Request): { address: string } | null
}

// The voter's / caller's address: the socket's, or behind a trusted proxy the right-most
// X-Forwarded-For entry (the one the proxy itself appended; entries to its left are whatever
// the client claimed). Null when neither is known (e.g. a request handled in-process).
export function clientAddress(request: Request, server: SocketInfo | null | undefined, trustProxy: boolean): string | null {
  if (trustProxy) {
    const xff = request.headers.get('x-forwarded-for')
    const last = xff?.split(',').map((s) => s.trim()).filter(Boolean).pop()
    if (last && isIP(last)) return last
  }
  return server?.requestIP(request)?.address ?? null
}

// The key a per-client rate limit counts under: the address (an IPv6 client per /64, so rotating
// addresses inside one subscriber prefix does not multiply the quota), or "unknown".
export function clientKey(request: Request, server: SocketInfo | null | undefined, trustProxy: boolean): string {
  return addressKey(clientAddress(request, server, trustProxy))
}

// clientKey of an address already read with clientAddress.
export const addressKey = (address: string | null): string => (address && ipKey(address)) ?? 'unknown'
