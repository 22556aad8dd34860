import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { isPrivateAddress } from './ip.ts'

// `reason` tells a name that does not resolve from an address that is refused.
export class TargetRefused extends Error {
  constructor(message: string, readonly reason: 'unresolved' | 'private') {
    super(message)
  }
}

export interface ResolvedTarget {
  host: string
  address: string
  family: 4 | 6
}

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>
export const systemLookup: Lookup = (host) => lookup(host, { all: true, verbatim: true })

// Resolves an owner-supplied host once and returns the address to connect to, so the address
// checked is the address used (no second lookup a rebinding DNS server could answer differently).
// Refused when any resolved address is private, unless private targets are allowed.
export async function resolveTarget(host: string, allowPrivate: boolean, resolve: Lookup = systemLookup): Promise<ResolvedTarget> {
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  let addresses: { address: string; family: number }[]
  if (isIP(bare)) {
    addresses = [{ address: bare, family: isIP(bare) }]
  } else {
    try {
      addresses = await resolve(bare)
    } catch {
      throw new TargetRefused(`${host} could not be resolved`, 'unresolved')
    }
    if (!addresses.length) throw new TargetRefused(`${host} could not be resolved`, 'unresolved')
  }
  if (!allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address))
    if (bad) throw new TargetRefused(`${host} resolves to ${bad.address}, a private or reserved address`, 'private')
  }
  const first = addresses[0]
  return { host: bare, address: first.address, family: first.family === 6 ? 6 : 4 }
}
