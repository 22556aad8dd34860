import { nodeDns } from '../lazy-modules.ts'
import { withDeadline } from './deadline.ts'
import { isIP, isPrivateAddress } from './ip.ts'

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
export const systemLookup: Lookup = (host) => nodeDns().lookup(host, { all: true, verbatim: true })

// Resolves an owner-supplied host once and returns the address to connect to, so the address
// checked is the address used (no second lookup a rebinding DNS server could answer differently).
// Refused when any resolved address is private, unless private targets are allowed.
export async function resolveTarget(host: string, allowPrivate: boolean, resolve: Lookup = systemLookup): Promise<ResolvedTarget> {
  return (await resolveTargets(host, allowPrivate, resolve))[0]
}

// Every address of the host, checked as resolveTarget checks them, in the resolver's order,
// without repeats: where one of them refuses the connection, the next may take it.
export async function resolveTargets(host: string, allowPrivate: boolean, resolve: Lookup = systemLookup): Promise<ResolvedTarget[]> {
  const found = await resolveAll(host, allowPrivate, resolve)
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  return [...new Map(found.map((a) => [a.address, { host: bare, address: a.address, family: a.family === 6 ? 6 as const : 4 as const }])).values()]
}

// Every address of the host, in the resolver's order, each checked as resolveTarget checks them.
async function resolveAll(host: string, allowPrivate: boolean, resolve: Lookup): Promise<{ address: string; family: number }[]> {
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
  return addresses
}

// A failed send to an owner's target, worded for the owner: the message is what the Deliveries
// tab and the Test button show. `final`: retrying cannot help (a webhook that answered 410 Gone),
// so no retry is scheduled. `retryAfterMs`: the receiver asked to be left alone that long (a rate
// limit), so the next attempt waits for it. Other failures are retried: the owner may fix the
// settings meanwhile.
export class DeliveryFailure extends Error {
  constructor(message: string, readonly detail: { httpStatus?: number; final?: boolean; retryAfterMs?: number } = {}) {
    super(message)
  }
}

// Seconds for messages: "5 s", "1.5 s".
export const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`

export interface TargetOptions {
  allowPrivate: boolean
  lookup?: Lookup // tests only: a resolver that never leaves the machine
}

// The send-time check shared by every transport: resolve the owner's host once and return the
// address that was checked, to connect to it (a rebinding DNS server gets no second question).
// The lookup counts against the attempt's own time limit, `timeoutMs`: a resolver that does not
// answer fails the attempt then (retried on the schedule), instead of holding it for as long as
// the system's resolver takes to give up.
export async function checkedAddress(host: string, opts: TargetOptions, timeoutMs: number): Promise<string> {
  return (await checkedAddresses(host, opts, timeoutMs))[0]
}

// Every address of the host, checked (resolveTargets), in the resolver's order, without repeats:
// where one of them refuses the connection, the next may take it (a listener bound to IPv4 only,
// as NuVotifier's default 0.0.0.0 is, behind a name that has an IPv6 address too).
export async function checkedAddresses(host: string, opts: TargetOptions, timeoutMs: number): Promise<string[]> {
  try {
    const late = () => new DeliveryFailure(`DNS failure: no answer for ${host} within ${seconds(timeoutMs)} (timed out): check the host name, or this machine's DNS resolver`)
    return (await withDeadline(resolveTargets(host, opts.allowPrivate, opts.lookup ?? systemLookup), timeoutMs, late)).map((a) => a.address)
  } catch (e) {
    if (!(e instanceof TargetRefused)) throw e
    throw new DeliveryFailure(e.reason === 'unresolved'
      ? `DNS failure: ${e.message} (check the host name)`
      : `private target refused: ${e.message}; votelist only connects to public addresses`)
  }
}
