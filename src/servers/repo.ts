import type { Awaitable } from '../db/store.ts'
import type { Edition } from './schema.ts'

// A listed server, and what the listing shows of it: its modes, its last ping, its rank. The
// servers repository is the one reader of server, server_mode and server_status; the ranking
// repository the one reader of the month counters (server_month, voter_month). Votes write the
// counters, ping rounds the status.

export interface Server {
  num: number
  id: string
  ownerId: string
  slug: string
  name: string
  host: string
  port: number | null
  edition: Edition
  modes: string[]
  version: string
  description: string
  website: string
  hidden: boolean
  // Publicly listed: shown in the ranking and the public pages and API, open to votes, pinged.
  // Computed by the repository from the one rule of listing (not hidden, owner not disabled).
  listed: boolean
  createdAt: number
  updatedAt: number
}

// What a vote needs of its server: the vote path reads only these.
export type VoteTarget = Pick<Server, 'id' | 'slug' | 'name' | 'edition' | 'listed'>

// The last ping of a server.
export interface ServerStatus {
  online: boolean
  playersOnline: number
  playersMax: number
  version: string | null
  motd: string | null
  latencyMs: number | null
  error: string | null
  lastPingAt: number
}

// A row of the ranking page, beside its rank: what the page shows of the server.
export interface Listing {
  id: string
  edition: Edition
  modes: string[]
  status: ServerStatus | null
}

// What a ping round needs of a listed server.
export interface PingTarget {
  num: number
  host: string
  port: number | null
  edition: Edition
  modes: string[]
}

export interface ServersRepo {
  insert(s: Omit<Server, 'num' | 'listed'>): Awaitable<Server>
  update(s: Server): Awaitable<void>
  bySlug(slug: string): Awaitable<Server | null>
  byId(id: string): Awaitable<Server | null>
  voteTarget(slug: string): Awaitable<VoteTarget | null>
  byOwner(ownerId: string): Awaitable<Server[]>
  all(): Awaitable<Server[]>
  slugExists(slug: string): Awaitable<boolean>
  // Removes the server with everything that hangs on it (the schema cascades).
  remove(id: string): Awaitable<boolean>
  status(serverNum: number): Awaitable<ServerStatus | null>
  // The listings of these servers, in the order of the ids.
  listings(ids: string[]): Awaitable<Listing[]>
  // Every listed server.
  pingTargets(): Awaitable<PingTarget[]>
}

export interface RankedServer {
  rank: number
  id: string
  slug: string
  name: string
  votes: number
}

export interface RankingFilter {
  edition?: Edition
  mode?: string
  search?: string
}

// Ranks are read from the month counters, never by counting votes. Rank = 1-based position among
// listed servers by votes in the UTC month, descending; ties go to the server whose
// latest vote came first, then to the older listing. A server listed after the month ended has
// no rank in it.
export interface RankingRepo {
  // One page of the ranking, in rank order; `rank` is the position among all listed servers,
  // whatever the filter. `total`: the servers that match the filter.
  page(month: string, filter: RankingFilter, limit: number, offset: number): Awaitable<{ total: number; rows: RankedServer[] }>
  // The server's rank and votes in the month, or null when it is not listed or was not listed yet.
  rankOf(serverId: string, month: string): Awaitable<RankedServer | null>
  topVoters(serverId: string, month: string, limit: number): Awaitable<{ pseudo: string; votes: number }[]>
  totalVotes(serverId: string): Awaitable<number>
  monthVotes(serverId: string, month: string): Awaitable<number>
}
