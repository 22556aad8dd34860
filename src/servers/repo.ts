import type { Awaitable } from '../db/store.ts'
import type { Motd } from '../motd/format.ts'
import type { Edition } from './schema.ts'

// A listed server, and what the listing shows of it: its modes, its last ping, its icon and
// banner, its rank. The servers repository is the one reader of server, server_mode,
// server_status, server_icon and server_banner (ping rounds write the status and the icon, owners
// the banner); the ranking
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
  // When the owner last proved they run the server (the listing's token read in its MOTD); null:
  // not verified. Changing the host, port or edition resets it.
  verifiedAt: number | null
  createdAt: number
  updatedAt: number
}

// What, beside a server's own row, decides whether it is on the public site: the site's
// `listing.require_verification`. The repositories are built with it.
export interface ListingPolicy {
  requireVerification: boolean
}

// Why a server is off the public site (ranking, pages, vote page, public API, ping rounds):
// hidden by an administrator, its owner's account disabled, claimed (another account proved it
// runs the same address), or unverified where the site requires proof.
export type UnlistedReason = 'hidden' | 'disabled' | 'claimed' | 'unverified'

// What a vote needs of its server: the vote path reads only these.
export type VoteTarget = Pick<Server, 'id' | 'slug' | 'name' | 'edition'>

// A listing of another account that claims the same address as a server (the admin sees them).
export interface AddressRival {
  serverId: string
  rival: { id: string; slug: string; name: string; ownerId: string; verified: boolean }
}

// The last ping of a server.
export interface ServerStatus {
  online: boolean
  playersOnline: number
  playersMax: number
  version: string | null
  motd: string | null // plain text
  styledMotd: Motd | null // as the game shows it (src/motd/format.ts)
  latencyMs: number | null
  error: string | null
  lastPingAt: number
}

// A row of the ranking page, beside its rank: what the page shows of the server.
export interface Listing {
  id: string
  host: string
  port: number | null
  edition: Edition
  version: string
  modes: string[]
  status: ServerStatus | null
  images: ImageHashes
}

// The SHA-256 (hex) of the server's icon and banner, null for none: what the pages put in the
// images' addresses, so that an address changes when its image does.
export interface ImageHashes {
  icon: string | null
  banner: string | null
}

// An owner's banner as kept: the type and size were read from its bytes.
export interface Banner {
  bytes: Uint8Array
  type: string
  width: number
  height: number
  hash: string
}

// What a ping round needs of a listed server.
export interface PingTarget {
  num: number
  id: string
  host: string
  port: number | null
  edition: Edition
  modes: string[]
}

export interface ServersRepo {
  // Called first by a script that lists a server: listings are made one at a time until the
  // transaction ends, so that the slug checks before the insert see every listing committed
  // before. SQLite's write transaction already serialises every write: nothing to do there.
  serialiseCreation(): Awaitable<void>
  insert(s: Omit<Server, 'num' | 'verifiedAt'>): Awaitable<Server>
  // Writes the listing's fields (not its verification: see setVerified).
  update(s: Server): Awaitable<void>
  bySlug(slug: string): Awaitable<Server | null>
  // The server when it is on the public site, else null.
  listedBySlug(slug: string): Awaitable<Server | null>
  // Null when the server is on the public site.
  unlistedReason(id: string): Awaitable<UnlistedReason | null>
  byId(id: string): Awaitable<Server | null>
  // `listed`: on the public site (see listedBySlug); `version`: listingVersion() as of this read.
  voteTarget(slug: string): Awaitable<(VoteTarget & { listed: boolean; version: number }) | null>
  byOwner(ownerId: string): Awaitable<Server[]>
  all(): Awaitable<Server[]>
  slugExists(slug: string): Awaitable<boolean>
  // The first part of deleting a server (src/servers/purge-sql.ts): the row is marked and leaves
  // every list and lookup, its slug is free, its keys and delivery targets are deleted. False when
  // there is no such server (or it was deleted already).
  markDeleted(id: string, at: number): Awaitable<boolean>
  // The servers marked deleted whose rows are still to remove, the oldest deletion first.
  deleted(): Awaitable<{ id: string; num: number }[]>
  // Removes at most a few thousand rows of a server marked deleted, or its row once nothing else
  // is left; false when it removed nothing (the server is gone, or another instance is at it).
  purgeStep(id: string, num: number): Awaitable<boolean>
  status(serverNum: number): Awaitable<ServerStatus | null>
  // The listings of these servers, in the order of the ids.
  listings(ids: string[]): Awaitable<Listing[]>
  // A number that changes with every change to what the public pages show of the listings (a
  // server, its modes, icon or banner, its owner's account), whoever made it; votes and pings
  // leave it as it is (migrations/0093_listing_version.sql).
  listingVersion(): Awaitable<number>
  // Every server on the public site.
  pingTargets(): Awaitable<PingTarget[]>
  imageHashes(serverNum: number): Awaitable<ImageHashes>
  // The icon its last answers sent (written by the ping rounds), or null.
  icon(serverNum: number): Awaitable<{ png: Uint8Array; hash: string } | null>
  banner(serverNum: number): Awaitable<Banner | null>
  setBanner(serverNum: number, banner: Banner, at: number): Awaitable<void>
  // False when there was none.
  removeBanner(serverNum: number): Awaitable<boolean>
  // Every pair of listings of different accounts that claim the same address.
  addressRivals(): Awaitable<AddressRival[]>
  // The listing's ownership token; `token` is stored only when it has none yet. Answers the
  // token kept (null: no such server).
  verificationToken(id: string, token: string): Awaitable<string | null>
  setVerified(id: string, at: number | null): Awaitable<void>
  // The latest proof wins: resets the verification of other accounts' listings of the same
  // address as this server. Answers their slugs.
  unverifyRivals(id: string): Awaitable<string[]>
}

export interface RankedServer {
  rank: number
  id: string
  slug: string
  name: string
  votes: number
  verified: boolean
}

export interface RankingFilter {
  edition?: Edition
  mode?: string
  search?: string
}

// A search finds the names that contain it in any case, accented letters too ("émeraude" finds
// "Émeraude Valley"). The names are lower-cased here, not in SQL: SQLite's lower() changes ASCII
// letters only, and PostgreSQL's depends on the database's locale. Answers the ids of the matching
// servers as a JSON array, for the ranking's query; null: no search.
export function searchMatches(filter: RankingFilter, names: readonly { id: string; name: string }[]): string | null {
  const term = filter.search?.trim().toLowerCase()
  if (!term) return null
  return JSON.stringify(names.filter((s) => s.name.toLowerCase().includes(term)).map((s) => s.id))
}

// Ranks are read from the month counters, never by counting votes. Rank = 1-based position among
// servers on the public site by votes in the UTC month, descending; ties go to the server whose
// latest vote came first, then to the older listing. A server listed after the month ended has
// no rank in it.
export interface RankingRepo {
  // One page of the ranking, in rank order; `rank` is the position among all listed servers,
  // whatever the filter. `total`: the servers that match the filter.
  page(month: string, filter: RankingFilter, limit: number, offset: number): Awaitable<{ total: number; rows: RankedServer[] }>
  // The server's rank and votes in the month, or null when it is off the public site or was not
  // listed yet.
  rankOf(serverId: string, month: string): Awaitable<RankedServer | null>
  topVoters(serverId: string, month: string, limit: number): Awaitable<{ pseudo: string; votes: number }[]>
  totalVotes(serverId: string): Awaitable<number>
  monthVotes(serverId: string, month: string): Awaitable<number>
}
