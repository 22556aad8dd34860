import { isIPv6 } from 'node:net'
import { notFound } from '../http/errors.ts'
import type { Runtime } from '../runtime.ts'
import type { Server } from '../servers/repo.ts'
import { monthOf } from '../votes/repo.ts'
import { DAY } from './repo.ts'

type Deps = Pick<Runtime, 'servers' | 'ranking' | 'stats' | 'config'>

// A listed server by slug; hidden servers do not exist for the public.
export function listedServer(deps: Pick<Runtime, 'servers'>, slug: string): Server {
  const server = deps.servers.bySlug(slug)
  if (!server || server.hidden) throw notFound(`no server with the slug "${slug}"`)
  return server
}

// "host" when the port is the edition's default (SRV for Java), else "host:port" ("[v6]:port").
export function displayAddress(host: string, port: number | null): string {
  if (port === null) return host
  return `${isIPv6(host) ? `[${host}]` : host}:${port}`
}

export const voteUrl = (baseUrl: string, slug: string) => `${baseUrl}/serveur/${encodeURIComponent(slug)}/voter`
export const badgeUrl = (baseUrl: string, slug: string) => `${baseUrl}/api/v1/servers/${encodeURIComponent(slug)}/badge.svg`

export function publicRecord(deps: Deps, server: Server, now: number) {
  const month = monthOf(now)
  const status = deps.stats.status(server.num)
  const uptime = deps.stats.uptimeSince(server.num, now - DAY)
  const base = deps.config.site.base_url
  return {
    id: server.id,
    slug: server.slug,
    name: server.name,
    description: server.description,
    edition: server.edition,
    address: displayAddress(server.host, server.port),
    version: server.version || status?.version || '',
    modes: server.modes,
    website: server.website,
    rank: deps.ranking.rankOf(server.id, month)?.rank ?? null,
    monthlyVotes: deps.ranking.monthVotes(server.id, month),
    totalVotes: deps.ranking.totalVotes(server.id),
    online: status?.online ?? false,
    players: { online: status?.playersOnline ?? 0, max: status?.playersMax ?? 0 },
    motd: status?.motd ?? null,
    latencyMs: status?.online ? status.latencyMs : null,
    lastPingAt: status ? new Date(status.lastPingAt).toISOString() : null,
    uptime: uptime === null ? null : Math.round(uptime * 10_000) / 10_000,
    voteUrl: voteUrl(base, server.slug),
    badgeUrl: badgeUrl(base, server.slug),
    createdAt: new Date(server.createdAt).toISOString(),
  }
}
