import { t } from 'elysia'
import { Iso, iso, isoOrNull } from '../http/schema.ts'
import { monthOf } from '../ranking/repo.ts'
import type { Runtime } from '../runtime.ts'
import type { Server } from './repo.ts'

// What an owner (or an admin) sees of a server in the owner API.
export const OwnerServerJson = t.Object({
  id: t.String(),
  slug: t.String(),
  name: t.String(),
  description: t.String(),
  edition: t.Union([t.Literal('java'), t.Literal('bedrock')]),
  host: t.String(),
  port: t.Union([t.Integer(), t.Null()], { description: 'null: the edition\'s default (SRV record or 25565 for Java, 19132 for Bedrock)' }),
  address: t.String({ description: '"host" or "host:port", as players type it' }),
  version: t.String(),
  modes: t.Array(t.String()),
  website: t.String(),
  hidden: t.Boolean({ description: 'hidden by an administrator: not in the ranking nor the public pages' }),
  rank: t.Union([t.Integer(), t.Null()], { description: 'this month\'s rank; null while hidden' }),
  monthlyVotes: t.Integer(),
  totalVotes: t.Integer(),
  voteUrl: t.String(),
  badgeUrl: t.String(),
  createdAt: Iso,
  updatedAt: Iso,
})

// The last ping, for the owner's lists ("players online" in My servers); null fields until the
// server's first ping.
export const LiveStatusJson = t.Object({
  online: t.Union([t.Boolean(), t.Null()], { description: 'whether the last ping answered; null before the first ping' }),
  players: t.Union([t.Object({ online: t.Integer(), max: t.Integer() }), t.Null()]),
  lastPingAt: t.Union([Iso, t.Null()]),
  pingError: t.Union([t.String(), t.Null()], { description: 'why the last ping failed' }),
})

export function liveStatus(rt: Pick<Runtime, 'stats'>, s: Pick<Server, 'num'>) {
  const status = rt.stats.status(s.num)
  return {
    online: status?.online ?? null,
    players: status ? { online: status.playersOnline, max: status.playersMax } : null,
    lastPingAt: isoOrNull(status?.lastPingAt ?? null),
    pingError: status && !status.online ? status.error : null,
  }
}

export function serverAddress(s: Pick<Server, 'host' | 'port'>): string {
  if (s.port === null) return s.host
  return s.host.includes(':') ? `[${s.host}]:${s.port}` : `${s.host}:${s.port}`
}

type ViewDeps = Pick<Runtime, 'config' | 'clock' | 'ranking'>

// `rank` may be passed in when a caller ranks many servers at once (the admin list).
export function ownerServerJson(rt: ViewDeps, s: Server, rank?: number | null) {
  const month = monthOf(rt.clock.now())
  const base = rt.config.site.base_url
  return {
    id: s.id, slug: s.slug, name: s.name, description: s.description, edition: s.edition, host: s.host, port: s.port,
    address: serverAddress(s), version: s.version, modes: s.modes, website: s.website, hidden: s.hidden,
    rank: rank !== undefined ? rank : (rt.ranking.rankOf(s.id, month)?.rank ?? null),
    monthlyVotes: rt.ranking.monthVotes(s.id, month),
    totalVotes: rt.ranking.totalVotes(s.id),
    voteUrl: `${base}/serveur/${s.slug}/voter`,
    badgeUrl: `${base}/api/v1/servers/${s.slug}/badge.svg`,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  }
}

// Every listed server's rank this month in one query, for lists of many servers.
export function ranksThisMonth(rt: ViewDeps): Map<string, number> {
  const { rows } = rt.ranking.page(monthOf(rt.clock.now()), {}, Number.MAX_SAFE_INTEGER, 0)
  return new Map(rows.map((r) => [r.id, r.rank]))
}
