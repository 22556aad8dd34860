import type { Database } from 'bun:sqlite'
import { readMotd } from '../motd/format.ts'
import type { AddressRival, Banner, ImageHashes, Listing, ListingPolicy, PingTarget, Server, ServersRepo, ServerStatus, UnlistedReason, VoteTarget } from './repo.ts'
import { listedSql, unlistedReasonSql } from './listed.ts'
import { lastSql, markSql, stepSql } from './purge-sql.ts'

// A server's modes, as a JSON array in mode order: the one query that builds them.
const MODES = (server: string) =>
  `(SELECT coalesce(json_group_array(mode), '[]') FROM (SELECT mode FROM server_mode m WHERE m.server_id = ${server}.id ORDER BY mode))`

const cols = `num, id, owner_id AS ownerId, slug, name, host, port, edition, version, description, website,
  hidden, verified_at AS verifiedAt, created_at AS createdAt, updated_at AS updatedAt, ${MODES('server')} AS modes`

type Row = Omit<Server, 'modes' | 'hidden'> & { modes: string; hidden: number }
const toServer = (r: Row | null): Server | null => (r ? { ...r, modes: JSON.parse(r.modes), hidden: r.hidden === 1 } : null)

const statusCols = `st.online, st.players_online AS playersOnline, st.players_max AS playersMax, st.version, st.motd,
  st.motd_styled AS styledMotd, st.latency_ms AS latencyMs, st.error, st.last_ping_at AS lastPingAt`
type StatusRow = Omit<ServerStatus, 'online' | 'styledMotd'> & { online: number | null; styledMotd: string | null }
// A server not pinged yet has no status row (in a LEFT JOIN: a row of nulls).
const toStatus = (r: StatusRow | null): ServerStatus | null => (r && r.online !== null
  ? { online: r.online === 1, playersOnline: r.playersOnline, playersMax: r.playersMax, version: r.version, motd: r.motd,
      styledMotd: readMotd(r.styledMotd), latencyMs: r.latencyMs, error: r.error, lastPingAt: r.lastPingAt }
  : null)
const IMAGE_HASHES = 'ic.hash AS iconHash, bn.hash AS bannerHash'
const IMAGE_JOINS = 'LEFT JOIN server_icon ic ON ic.server_num = s.num LEFT JOIN server_banner bn ON bn.server_num = s.num'
type ListingRow = StatusRow & Omit<Listing, 'modes' | 'status' | 'images'> & { modes: string; iconHash: string | null; bannerHash: string | null }

export function sqliteServersRepo(db: Database, policy: ListingPolicy) {
  const insert = db.prepare(`INSERT INTO server (id, owner_id, slug, name, host, port, edition, version, description, website, hidden, created_at, updated_at)
    VALUES ($id, $ownerId, $slug, $name, $host, $port, $edition, $version, $description, $website, $hidden, $createdAt, $updatedAt)`)
  const update = db.prepare(`UPDATE server SET name = $name, host = $host, port = $port, edition = $edition, version = $version,
    description = $description, website = $website, hidden = $hidden, updated_at = $updatedAt WHERE id = $id AND deleted_at IS NULL`)
  const clearModes = db.prepare('DELETE FROM server_mode WHERE server_id = ?')
  const addMode = db.prepare('INSERT INTO server_mode (server_id, mode) VALUES (?, ?)')
  const bySlug = db.prepare(`SELECT ${cols} FROM server WHERE slug = ? AND deleted_at IS NULL`)
  const byId = db.prepare(`SELECT ${cols} FROM server WHERE id = ? AND deleted_at IS NULL`)
  const listedBySlug = db.prepare(`SELECT ${cols} FROM server WHERE slug = ? AND ${listedSql('server', policy)}`)
  const unlistedReason = db.prepare(`SELECT ${unlistedReasonSql('server', policy)} AS reason FROM server WHERE id = ?`)
  // The vote path's lookup: no modes subquery; the listing version read in the same statement.
  const voteTarget = db.prepare(`SELECT id, slug, name, edition, ${listedSql('server', policy)} AS listed,
    (SELECT n FROM listing_version) AS version FROM server WHERE slug = ?`)
  const byOwner = db.prepare(`SELECT ${cols} FROM server WHERE owner_id = ? AND deleted_at IS NULL ORDER BY created_at, num`)
  const all = db.prepare(`SELECT ${cols} FROM server WHERE deleted_at IS NULL ORDER BY created_at, num`)
  const slugExists = db.prepare('SELECT 1 FROM server WHERE slug = ?')
  // Deleting a server: marked at once, removed in steps (src/servers/purge-sql.ts).
  const mark = markSql((n) => `?${n}`).map((sql) => db.prepare(sql))
  const deleted = db.prepare('SELECT id, num FROM server WHERE deleted_at IS NOT NULL ORDER BY deleted_at, num')
  const steps = stepSql((n) => `?${n}`).map(({ by, sql }) => ({ by, statement: db.prepare(sql) }))
  const last = db.prepare(lastSql((n) => `?${n}`))
  const status = db.prepare(`SELECT ${statusCols} FROM server_status st WHERE st.server_num = ?`)
  // One query for a whole page of the ranking, in the order of the ids given.
  const listings = db.prepare(`SELECT s.id, s.host, s.port, s.edition, s.version AS listedVersion, ${MODES('s')} AS modes, ${statusCols}, ${IMAGE_HASHES}
    FROM json_each(?) j JOIN server s ON s.id = j.value LEFT JOIN server_status st ON st.server_num = s.num ${IMAGE_JOINS}
    ORDER BY j.key`)
  const listingVersion = db.prepare('SELECT n FROM listing_version')
  const imageHashes = db.prepare(`SELECT ${IMAGE_HASHES} FROM server s ${IMAGE_JOINS} WHERE s.num = ?`)
  const icon = db.prepare('SELECT png, hash FROM server_icon WHERE server_num = ?')
  const banner = db.prepare('SELECT bytes, type, width, height, hash FROM server_banner WHERE server_num = ?')
  const setBanner = db.prepare(`INSERT INTO server_banner (server_num, hash, type, width, height, updated_at, bytes)
    VALUES ($num, $hash, $type, $width, $height, $at, $bytes)
    ON CONFLICT (server_num) DO UPDATE SET type = excluded.type, width = excluded.width, height = excluded.height,
      bytes = excluded.bytes, hash = excluded.hash, updated_at = excluded.updated_at`)
  const removeBanner = db.prepare('DELETE FROM server_banner WHERE server_num = ?')
  // What a ping round needs of every listed server, without the long text fields.
  const pingTargets = db.prepare(`SELECT num, id, host, port, edition, ${MODES('server')} AS modes FROM server
    WHERE ${listedSql('server', policy)} ORDER BY num`)
  const rivals = db.prepare(`SELECT s.id AS serverId, o.id, o.slug, o.name, o.owner_id AS ownerId, o.verified_at IS NOT NULL AS verified
    FROM server s JOIN server o ON o.claim = s.claim AND o.owner_id <> s.owner_id
    WHERE s.deleted_at IS NULL AND o.deleted_at IS NULL ORDER BY s.num, o.num`)
  const setToken = db.prepare('UPDATE server SET verify_token = ?2 WHERE id = ?1 AND verify_token IS NULL')
  const getToken = db.prepare('SELECT verify_token AS token FROM server WHERE id = ?')
  const setVerified = db.prepare('UPDATE server SET verified_at = ?2 WHERE id = ?1 AND deleted_at IS NULL')
  const unverifyRivals = db.prepare(`UPDATE server SET verified_at = NULL
    WHERE verified_at IS NOT NULL AND claim = (SELECT claim FROM server WHERE id = ?1 AND deleted_at IS NULL) AND owner_id <> (SELECT owner_id FROM server WHERE id = ?1)
    RETURNING slug`)

  const setModes = (id: string, modes: string[]) => {
    clearModes.run(id)
    for (const m of modes) addMode.run(id, m)
  }

  return {
    serialiseCreation() {},
    insert(s) {
      const { modes: _m, ...fields } = s
      const num = Number(insert.run({ ...fields, hidden: s.hidden ? 1 : 0 }).lastInsertRowid)
      setModes(s.id, s.modes)
      return { ...s, num, verifiedAt: null }
    },
    update(s) {
      const { num: _n, modes, ownerId: _o, slug: _s, createdAt: _c, verifiedAt: _v, ...rest } = s
      update.run({ ...rest, hidden: s.hidden ? 1 : 0 })
      setModes(s.id, modes)
    },
    bySlug: (slug) => toServer(bySlug.get(slug) as Row | null),
    byId: (id) => toServer(byId.get(id) as Row | null),
    listedBySlug: (slug) => toServer(listedBySlug.get(slug) as Row | null),
    unlistedReason: (id) => (unlistedReason.get(id) as { reason: UnlistedReason | null } | null)?.reason ?? null,
    voteTarget(slug) {
      const r = voteTarget.get(slug) as (VoteTarget & { listed: number; version: number }) | null
      return r && { ...r, listed: r.listed === 1 }
    },
    byOwner: (ownerId) => (byOwner.all(ownerId) as Row[]).map((r) => toServer(r)!),
    all: () => (all.all() as Row[]).map((r) => toServer(r)!),
    slugExists: (slug) => slugExists.get(slug) !== null,
    markDeleted(id, at) {
      const [server, ...children] = mark
      if (server.run(id, at).changes === 0) return false
      for (const c of children) c.run(id)
      return true
    },
    deleted: () => deleted.all() as { id: string; num: number }[],
    purgeStep(id, num) {
      for (const { by, statement } of steps) if (statement.run(by === 'server_id' ? id : num).changes > 0) return true
      return last.run(id, num).changes > 0
    },
    status: (serverNum) => toStatus(status.get(serverNum) as StatusRow | null),
    listings: (ids) =>
      (listings.all(JSON.stringify(ids)) as (ListingRow & { listedVersion: string })[]).map((r): Listing => ({
        id: r.id, host: r.host, port: r.port, edition: r.edition, version: r.listedVersion, modes: JSON.parse(r.modes),
        status: toStatus(r), images: { icon: r.iconHash, banner: r.bannerHash },
      })),
    listingVersion: () => (listingVersion.get() as { n: number }).n,
    imageHashes(serverNum) {
      const r = imageHashes.get(serverNum) as { iconHash: string | null; bannerHash: string | null } | null
      return { icon: r?.iconHash ?? null, banner: r?.bannerHash ?? null } satisfies ImageHashes
    },
    icon: (serverNum) => {
      const r = icon.get(serverNum) as { png: Uint8Array; hash: string } | null
      return r && { png: r.png, hash: r.hash }
    },
    banner: (serverNum) => banner.get(serverNum) as Banner | null,
    setBanner(serverNum, b, at) {
      setBanner.run({ num: serverNum, type: b.type, width: b.width, height: b.height, bytes: b.bytes, hash: b.hash, at })
    },
    removeBanner: (serverNum) => removeBanner.run(serverNum).changes > 0,
    pingTargets: () => (pingTargets.all() as (Omit<PingTarget, 'modes'> & { modes: string })[]).map((r) => ({ ...r, modes: JSON.parse(r.modes) as string[] })),
    addressRivals: () => (rivals.all() as (Omit<AddressRival['rival'], 'verified'> & { serverId: string; verified: number })[])
      .map(({ serverId, verified, ...rival }) => ({ serverId, rival: { ...rival, verified: verified === 1 } })),
    verificationToken(id, token) {
      setToken.run(id, token)
      return (getToken.get(id) as { token: string } | null)?.token ?? null
    },
    setVerified: (id, at) => { setVerified.run(id, at) },
    unverifyRivals: (id) => (unverifyRivals.all(id) as { slug: string }[]).map((r) => r.slug),
  } satisfies ServersRepo
}
