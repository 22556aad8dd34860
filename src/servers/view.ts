import type { Clock } from '../clock.ts'
import { iso, isoOrNull } from '../http/schema.ts'
import type { SiteUrl } from '../http/site-url.ts'
import { monthOf } from './month.ts'
import type { RankingRepo, Server, ServersRepo } from './repo.ts'
import type { LiveStatusJson, OwnerServerJson } from './schema.ts'

// The owner API's views of a server.

export interface ViewDeps {
  siteUrl: SiteUrl
  clock: Clock
  store: { ranking: RankingRepo; servers: ServersRepo }
}

// The addresses of a server's icon and banner. `v` is the start of the image's hash: the address
// changes when the image does, so an answer to it may be cached for good (src/media/routes.ts).
// Without an icon, the icon address serves the site's default one.
export const imageVersion = (hash: string) => hash.slice(0, 16)
export const iconPath = (slug: string, hash: string | null) => `/api/v1/servers/${slug}/icon.png${hash ? `?v=${imageVersion(hash)}` : ''}`
export const bannerPath = (slug: string, hash: string | null) => (hash ? `/api/v1/servers/${slug}/banner?v=${imageVersion(hash)}` : null)

export async function liveStatus(deps: { store: { servers: ServersRepo } }, s: Pick<Server, 'num'>): Promise<LiveStatusJson> {
  const status = await deps.store.servers.status(s.num)
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

// `rank` may be passed in when a caller ranks many servers at once (the admin list).
export async function ownerServerJson(deps: ViewDeps, s: Server, rank?: number | null): Promise<OwnerServerJson> {
  const month = monthOf(deps.clock.now())
  const base = deps.siteUrl.base()
  const { ranking, servers } = deps.store
  const images = await servers.imageHashes(s.num)
  const banner = bannerPath(s.slug, images.banner)
  const unlistedReason = await servers.unlistedReason(s.id)
  return {
    id: s.id, slug: s.slug, name: s.name, description: s.description, edition: s.edition, host: s.host, port: s.port,
    address: serverAddress(s), version: s.version, modes: s.modes, website: s.website, hidden: s.hidden,
    verified: s.verifiedAt !== null, verifiedAt: isoOrNull(s.verifiedAt), listed: unlistedReason === null, unlistedReason,
    rank: rank !== undefined ? rank : ((await ranking.rankOf(s.id, month))?.rank ?? null),
    monthlyVotes: await ranking.monthVotes(s.id, month),
    totalVotes: await ranking.totalVotes(s.id),
    voteUrl: `${base}/serveur/${s.slug}/voter`,
    badgeUrl: `${base}/api/v1/servers/${s.slug}/badge.svg`,
    iconUrl: base + iconPath(s.slug, images.icon),
    bannerUrl: banner && base + banner,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  }
}

// Every listed server's rank this month in one query, for lists of many servers.
export async function ranksThisMonth(deps: ViewDeps): Promise<Map<string, number>> {
  const { rows } = await deps.store.ranking.page(monthOf(deps.clock.now()), {}, Number.MAX_SAFE_INTEGER, 0)
  return new Map(rows.map((r) => [r.id, r.rank]))
}
