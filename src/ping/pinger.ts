import { nodeDns } from '../lazy-modules.ts'
import { withDeadline } from '../net/deadline.ts'
import { resolveTargets, systemLookup, TargetRefused, type ResolvedTarget } from '../net/guard.ts'
import { isIP } from '../net/ip.ts'
import type { ServerStatus } from '../servers/repo.ts'
import type { Edition } from '../servers/schema.ts'
import type { PingAnswer } from './answer.ts'
import { pingBedrock } from './bedrock-ping.ts'
import { pingJava, type ListedAddress } from './java-ping.ts'
import { pingLegacy } from './legacy-ping.ts'
import { PingError } from './tcp-exchange.ts'

export const JAVA_PORT = 25565
export const BEDROCK_PORT = 19132

export interface PingTarget {
  host: string
  port: number | null
  edition: Edition
}

// Name resolution, injectable so tests can answer from a DNS server on 127.0.0.1.
export interface PingDns {
  resolveSrv(name: string): Promise<{ name: string; port: number; priority: number; weight: number }[]>
  lookup(host: string): Promise<{ address: string; family: number }[]>
}
export const systemDns: PingDns = {
  resolveSrv: (name) => nodeDns().resolveSrv(name),
  lookup: systemLookup,
}

export interface PingOptions {
  timeoutMs: number
  allowPrivate: boolean
  dns?: PingDns
}

// What one ping found: the server's status but for its time, and the favicon it sent.
export type PingStatus = Omit<ServerStatus, 'lastPingAt'> & { favicon: string | null }

const down = (error: string): PingStatus => ({ online: false, playersOnline: 0, playersMax: 0, version: null, motd: null, styledMotd: null, favicon: null, latencyMs: null, error })
const up = (a: PingAnswer): PingStatus => ({ online: true, ...a, error: null })

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  withDeadline(p, ms, () => new PingError(`${what} took longer than ${ms} ms`))

// A Java host listed without a port is looked up as _minecraft._tcp.<host> (what the game client
// does); the record with the lowest priority, then the highest weight, wins. No record: port 25565.
// The record only says where to connect: the handshake still names the host as listed.
async function javaEndpoint(host: string, dns: PingDns, timeoutMs: number): Promise<{ host: string; port: number }> {
  if (isIP(host)) return { host, port: JAVA_PORT }
  let records: Awaited<ReturnType<PingDns['resolveSrv']>> = []
  try {
    records = await withTimeout(dns.resolveSrv(`_minecraft._tcp.${host}`), timeoutMs, 'the SRV lookup')
  } catch {
    // No SRV record (NXDOMAIN, NODATA) or no answer: the plain host on the default port.
  }
  const best = records.filter((r) => r.name && r.name !== '.').sort((a, b) => a.priority - b.priority || b.weight - a.weight)[0]
  return best ? { host: best.name.replace(/\.$/, ''), port: best.port } : { host, port: JAVA_PORT }
}

// The modern ping, then on the same address the 1.6 legacy ping when the server accepted the
// connection but did not speak the modern one (it may be pre-1.7).
async function pingJavaAt(address: string, port: number, listed: ListedAddress, timeoutMs: number): Promise<PingAnswer> {
  try {
    return await pingJava(address, port, listed, timeoutMs)
  } catch (modern) {
    if (!(modern instanceof PingError && modern.connected)) throw modern
    try {
      return await pingLegacy(address, port, listed, timeoutMs)
    } catch (legacy) {
      throw new PingError(`${modern.message} (legacy ping: ${(legacy as Error).message})`, true)
    }
  }
}

// The host's addresses, IPv4 first: the Java client connects to the first address Java returns,
// an IPv4 one where there is one, and Bedrock Dedicated Server answers IPv6 on another port
// (19133). A resolver on a dual-stack machine lists the IPv6 address first, where a server
// listening on IPv4 only is refused or silent. An address refusing at once is followed by the
// next one; one that says nothing is not (its timeout is the step's time).
async function firstAnswer(addresses: ResolvedTarget[], ping: (a: ResolvedTarget) => Promise<PingAnswer>): Promise<PingAnswer> {
  const ordered = [...addresses.filter((a) => a.family === 4), ...addresses.filter((a) => a.family === 6)]
  const refused: string[] = []
  for (const a of ordered) {
    try {
      return await ping(a)
    } catch (e) {
      if (!(e instanceof PingError && e.refused)) throw e
      refused.push(`${a.address}: ${e.message}`)
      if (ordered.length === 1) throw e
    }
  }
  throw new PingError(refused.join('; '))
}

// Pings one server and never throws: any failure is a measurement (down, 0 players) with the reason.
export async function pingServer(target: PingTarget, opts: PingOptions): Promise<PingStatus> {
  const dns = opts.dns ?? systemDns
  try {
    const endpoint = target.edition === 'bedrock' || target.port !== null
      ? { host: target.host, port: target.port ?? BEDROCK_PORT }
      : await javaEndpoint(target.host, dns, opts.timeoutMs)
    // What the game's server list (1.17+) puts in the handshake: the address as typed, 25565 for
    // no port, whatever SRV record it followed to connect.
    const listed = { host: target.host, port: target.port ?? JAVA_PORT }
    // Checked here and connected to as resolved: the same SSRF rule as every outbound target.
    const addresses = await withTimeout(resolveTargets(endpoint.host, opts.allowPrivate, dns.lookup), opts.timeoutMs, 'resolving the host')
    return up(await firstAnswer(addresses, (a) => target.edition === 'bedrock'
      ? pingBedrock(a.address, a.family, endpoint.port, opts.timeoutMs)
      : pingJavaAt(a.address, endpoint.port, listed, opts.timeoutMs)))
  } catch (e) {
    if (e instanceof PingError || e instanceof TargetRefused) return down(e.message)
    return down(`ping failed: ${(e as Error).message}`)
  }
}
