import { exec, lockUntilCommit, row, rows, type Pg } from '../db/postgres-client.ts'
import { readMotd } from '../motd/format.ts'
import { listedSql, unlistedReasonSql } from './listed.ts'
import { lastSql, markSql, stepSql } from './purge-sql.ts'
import type { AddressRival, Banner, Listing, ListingPolicy, PingTarget, Server, ServersRepo, ServerStatus, UnlistedReason, VoteTarget } from './repo.ts'

// A server's modes as a text array in mode order (mode is COLLATE "C": byte order, as on SQLite).
const MODES = (server: string) => `ARRAY(SELECT mode FROM server_mode m WHERE m.server_id = ${server}.id ORDER BY mode)`

const cols = `num, id, owner_id AS "ownerId", slug, name, host, port, edition, version, description, website,
  hidden, verified_at AS "verifiedAt", created_at AS "createdAt", updated_at AS "updatedAt", ${MODES('server')} AS modes`

type Row = Omit<Server, 'hidden'> & { hidden: number }
const toServer = (r: Row | null): Server | null => (r ? { ...r, hidden: r.hidden === 1 } : null)

const statusCols = `st.online, st.players_online AS "playersOnline", st.players_max AS "playersMax", st.version, st.motd,
  st.motd_styled AS "styledMotd", st.latency_ms AS "latencyMs", st.error, st.last_ping_at AS "lastPingAt"`
type StatusRow = Omit<ServerStatus, 'online' | 'styledMotd'> & { online: number | null; styledMotd: string | null }
// A server not pinged yet has no status row (in a LEFT JOIN: a row of nulls).
const toStatus = (r: StatusRow | null): ServerStatus | null => (r && r.online !== null
  ? { online: r.online === 1, playersOnline: r.playersOnline, playersMax: r.playersMax, version: r.version, motd: r.motd,
      styledMotd: readMotd(r.styledMotd), latencyMs: r.latencyMs, error: r.error, lastPingAt: r.lastPingAt }
  : null)
const IMAGE_HASHES = 'ic.hash AS "iconHash", bn.hash AS "bannerHash"'
const IMAGE_JOINS = 'LEFT JOIN server_icon ic ON ic.server_num = s.num LEFT JOIN server_banner bn ON bn.server_num = s.num'
type ListingRow = StatusRow & Omit<Listing, 'status' | 'images' | 'version'> & { listedVersion: string; iconHash: string | null; bannerHash: string | null }

const INSERT = `INSERT INTO server (id, owner_id, slug, name, host, port, edition, version, description, website, hidden, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING num`
const UPDATE = `UPDATE server SET name = $2, host = $3, port = $4, edition = $5, version = $6, description = $7, website = $8,
  hidden = $9, updated_at = $10 WHERE id = $1 AND deleted_at IS NULL`
// One query for a whole page of the ranking, in the order of the ids given.
const LISTINGS = `SELECT s.id, s.host, s.port, s.edition, s.version AS "listedVersion", ${MODES('s')} AS modes, ${statusCols}, ${IMAGE_HASHES}
  FROM unnest($1::text[]) WITH ORDINALITY AS j(id, n) JOIN server s ON s.id = j.id LEFT JOIN server_status st ON st.server_num = s.num
  ${IMAGE_JOINS}
  ORDER BY j.n`
const SET_BANNER = `INSERT INTO server_banner (server_num, hash, type, width, height, updated_at, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (server_num) DO UPDATE SET type = excluded.type, width = excluded.width, height = excluded.height,
    bytes = excluded.bytes, hash = excluded.hash, updated_at = excluded.updated_at`
const RIVALS = `SELECT s.id AS "serverId", o.id, o.slug, o.name, o.owner_id AS "ownerId", o.verified_at IS NOT NULL AS verified
  FROM server s JOIN server o ON o.claim = s.claim AND o.owner_id <> s.owner_id
  WHERE s.deleted_at IS NULL AND o.deleted_at IS NULL ORDER BY s.num, o.num`
// The first key of the advisory locks that serialise the proofs of one address (the second is a
// hash of the claim): "claim" in ASCII.
const CLAIM_LOCK = 0x636c6169
// The key of the advisory lock that serialises the listing of new servers: "slug" in ASCII.
const CREATION_LOCK = 0x736c7567
// The token is kept once made: of two requests at once, the second finds the first's.
const TOKEN = 'UPDATE server SET verify_token = coalesce(verify_token, $2) WHERE id = $1 RETURNING verify_token AS token'
const UNVERIFY_RIVALS = `UPDATE server SET verified_at = NULL
  WHERE verified_at IS NOT NULL AND claim = (SELECT claim FROM server WHERE id = $1 AND deleted_at IS NULL) AND owner_id <> (SELECT owner_id FROM server WHERE id = $1)
  RETURNING slug`

// Deleting a server: marked at once, removed in steps (src/servers/purge-sql.ts).
const MARK = markSql((n) => `$${n}`)
const STEPS = stepSql((n) => `$${n}`, ' FOR UPDATE SKIP LOCKED')
const LAST = lastSql((n) => `$${n}`)

// `policy`: the site's listing rule (src/servers/listed.ts), applied by every public query.
export function postgresServersRepo(pg: Pg, policy: ListingPolicy) {
  const LISTED_BY_SLUG = `SELECT ${cols} FROM server WHERE slug = $1 AND ${listedSql('server', policy)}`
  const UNLISTED_REASON = `SELECT ${unlistedReasonSql('server', policy)} AS reason FROM server WHERE id = $1`
  // The vote path's lookup: no modes subquery.
  const VOTE_TARGET = `SELECT id, slug, name, edition, ${listedSql('server', policy)} AS listed,
    (SELECT n FROM listing_version) AS version FROM server WHERE slug = $1`
  // What a ping round needs of every listed server, without the long text fields.
  const PING_TARGETS = `SELECT num, id, host, port, edition, ${MODES('server')} AS modes FROM server WHERE ${listedSql('server', policy)} ORDER BY num`

  const setModes = async (id: string, modes: string[]) => {
    await exec(pg, 'DELETE FROM server_mode WHERE server_id = $1', [id])
    if (modes.length) await exec(pg, 'INSERT INTO server_mode (server_id, mode) SELECT $1, unnest($2::text[])', [id, modes])
  }
  const one = async (where: string, value: string) => toServer(await row<Row>(pg, `SELECT ${cols} FROM server WHERE ${where} = $1 AND deleted_at IS NULL`, [value]))

  return {
    // Without it, two listings at once each miss the other's uncommitted slug, and the second
    // fails on the unique key instead of taking the next free slug or a 409.
    serialiseCreation: () => lockUntilCommit(pg, CREATION_LOCK),
    async insert(s) {
      const { num } = (await row<{ num: number }>(pg, INSERT, [
        s.id, s.ownerId, s.slug, s.name, s.host, s.port, s.edition, s.version, s.description, s.website, s.hidden ? 1 : 0, s.createdAt, s.updatedAt,
      ]))!
      await setModes(s.id, s.modes)
      return { ...s, num, verifiedAt: null }
    },
    async update(s) {
      await exec(pg, UPDATE, [s.id, s.name, s.host, s.port, s.edition, s.version, s.description, s.website, s.hidden ? 1 : 0, s.updatedAt])
      await setModes(s.id, s.modes)
    },
    bySlug: (slug) => one('slug', slug),
    byId: (id) => one('id', id),
    listedBySlug: async (slug) => toServer(await row<Row>(pg, LISTED_BY_SLUG, [slug])),
    unlistedReason: async (id) => (await row<{ reason: UnlistedReason | null }>(pg, UNLISTED_REASON, [id]))?.reason ?? null,
    voteTarget: (slug) => row<VoteTarget & { listed: boolean; version: number }>(pg, VOTE_TARGET, [slug]),
    byOwner: async (ownerId) => (await rows<Row>(pg, `SELECT ${cols} FROM server WHERE owner_id = $1 AND deleted_at IS NULL ORDER BY created_at, num`, [ownerId])).map((r) => toServer(r)!),
    all: async () => (await rows<Row>(pg, `SELECT ${cols} FROM server WHERE deleted_at IS NULL ORDER BY created_at, num`)).map((r) => toServer(r)!),
    slugExists: async (slug) => (await row(pg, 'SELECT 1 FROM server WHERE slug = $1', [slug])) !== null,
    async markDeleted(id, at) {
      const [server, ...children] = MARK
      if ((await exec(pg, server, [id, at])) === 0) return false
      for (const c of children) await exec(pg, c, [id])
      return true
    },
    deleted: () => rows<{ id: string; num: number }>(pg, 'SELECT id, num FROM server WHERE deleted_at IS NOT NULL ORDER BY deleted_at, num'),
    async purgeStep(id, num) {
      for (const { by, sql } of STEPS) if ((await exec(pg, sql, [by === 'server_id' ? id : num])) > 0) return true
      return (await exec(pg, LAST, [id, num])) > 0
    },
    status: async (serverNum) => toStatus(await row<StatusRow>(pg, `SELECT ${statusCols} FROM server_status st WHERE st.server_num = $1`, [serverNum])),
    listings: async (ids) => (await rows<ListingRow>(pg, LISTINGS, [ids])).map((r): Listing => ({
      id: r.id, host: r.host, port: r.port, edition: r.edition, version: r.listedVersion, modes: r.modes,
      status: toStatus(r), images: { icon: r.iconHash, banner: r.bannerHash },
    })),
    listingVersion: async () => (await row<{ n: number }>(pg, 'SELECT n FROM listing_version'))!.n,
    async imageHashes(serverNum) {
      const r = await row<{ iconHash: string | null; bannerHash: string | null }>(pg, `SELECT ${IMAGE_HASHES} FROM server s ${IMAGE_JOINS} WHERE s.num = $1`, [serverNum])
      return { icon: r?.iconHash ?? null, banner: r?.bannerHash ?? null }
    },
    icon: (serverNum) => row<{ png: Uint8Array; hash: string }>(pg, 'SELECT png, hash FROM server_icon WHERE server_num = $1', [serverNum]),
    banner: (serverNum) => row<Banner>(pg, 'SELECT bytes, type, width, height, hash FROM server_banner WHERE server_num = $1', [serverNum]),
    async setBanner(serverNum, b, at) {
      await exec(pg, SET_BANNER, [serverNum, b.hash, b.type, b.width, b.height, at, b.bytes])
    },
    removeBanner: async (serverNum) => (await exec(pg, 'DELETE FROM server_banner WHERE server_num = $1', [serverNum])) > 0,
    pingTargets: () => rows<PingTarget>(pg, PING_TARGETS),
    addressRivals: async () => (await rows<AddressRival['rival'] & { serverId: string }>(pg, RIVALS))
      .map(({ serverId, ...rival }) => ({ serverId, rival })),
    verificationToken: async (id, token) => (await row<{ token: string }>(pg, TOKEN, [id, token]))?.token ?? null,
    async setVerified(id, at) {
      // Two proofs of one address at once (two accounts, two instances): the second waits for the
      // first's commit, then takes the address from it with unverifyRivals, as SQLite's serial
      // writes do; without the lock each would miss the other's uncommitted proof and both would
      // stay verified. Released by the transaction's end.
      if (at !== null) await exec(pg, 'SELECT pg_advisory_xact_lock($1, hashtext(claim)) FROM server WHERE id = $2', [CLAIM_LOCK, id])
      await exec(pg, 'UPDATE server SET verified_at = $2 WHERE id = $1 AND deleted_at IS NULL', [id, at])
    },
    unverifyRivals: async (id) => (await rows<{ slug: string }>(pg, UNVERIFY_RIVALS, [id])).map((r) => r.slug),
  } satisfies ServersRepo
}
