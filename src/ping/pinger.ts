import { nodeDns } from '../lazy-modules.ts'
import { withDeadline } from '../net/deadline.ts'
import { resolveTarget, systemLookup, TargetRefused } from '../net/guard.ts'
import { isIP } from '../net/ip.ts'
import type { ServerStatus } from '../servers/repo.ts'
import type { Edition } from '../servers/schema.ts'
import type { PingAnswer } from './answer.ts'
import { pingBedrock } from './bedrock-ping.ts'
import { pingJava } from './java-ping.ts'
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

// Pings one server and never throws: any failure is a measurement (down, 0 players) with the reason.
export async function pingServer(target: PingTarget, opts: PingOptions): Promise<PingStatus> {
  const dns = opts.dns ?? systemDns
  try {
    const endpoint = target.edition === 'bedrock' || target.port !== null
      ? { host: target.host, port: target.port ?? BEDROCK_PORT }
      : await javaEndpoint(target.host, dns, opts.timeoutMs)
    // Checked here and connected to as resolved: the same SSRF rule as every outbound target.
    const resolved = await withTimeout(resolveTarget(endpoint.host, opts.allowPrivate, dns.lookup), opts.timeoutMs, 'resolving the host')
    if (target.edition === 'bedrock') return up(await pingBedrock(resolved.address, resolved.family, endpoint.port, opts.timeoutMs))
    try {
      return up(await pingJava(resolved.address, endpoint.port, endpoint.host, opts.timeoutMs))
    } catch (modern) {
      // A server that accepted the connection but did not speak the modern ping may be pre-1.7.
      if (!(modern instanceof PingError && modern.connected)) throw modern
      try {
        return up(await pingLegacy(resolved.address, endpoint.port, endpoint.host, opts.timeoutMs))
      } catch (legacy) {
        throw new PingError(`${modern.message} (legacy ping: ${(legacy as Error).message})`)
      }
    }
  } catch (e) {
    if (e instanceof PingError || e instanceof TargetRefused) return down(e.message)
    return down(`ping failed: ${(e as Error).message}`)
  }
}
