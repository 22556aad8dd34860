import type { Database } from 'bun:sqlite'
import type { Listing, PingTarget, Server, ServersRepo, ServerStatus, VoteTarget } from './repo.ts'

// The one rule of "publicly listed", as an SQL condition on the server row `server`: not hidden
// by an administrator, and its owner's account not disabled. The ranking, the public pages and
// API, the vote path and the ping rounds all read it from here.
export const LISTED = (server: string) =>
  `(${server}.hidden = 0 AND NOT EXISTS (SELECT 1 FROM user o WHERE o.id = ${server}.owner_id AND o.disabled_at IS NOT NULL))`

// A server's modes, as a JSON array in mode order: the one query that builds them.
const MODES = (server: string) =>
  `(SELECT coalesce(json_group_array(mode), '[]') FROM (SELECT mode FROM server_mode m WHERE m.server_id = ${server}.id ORDER BY mode))`

const cols = `num, id, owner_id AS ownerId, slug, name, host, port, edition, version, description, website,
  hidden, ${LISTED('server')} AS listed, created_at AS createdAt, updated_at AS updatedAt, ${MODES('server')} AS modes`

type Row = Omit<Server, 'modes' | 'hidden' | 'listed'> & { modes: string; hidden: number; listed: number }
const toServer = (r: Row | null): Server | null => (r ? { ...r, modes: JSON.parse(r.modes), hidden: r.hidden === 1, listed: r.listed === 1 } : null)

const statusCols = `st.online, st.players_online AS playersOnline, st.players_max AS playersMax, st.version, st.motd,
  st.latency_ms AS latencyMs, st.error, st.last_ping_at AS lastPingAt`
type StatusRow = Omit<ServerStatus, 'online'> & { online: number | null }
// A server not pinged yet has no status row (in a LEFT JOIN: a row of nulls).
const toStatus = (r: StatusRow | null): ServerStatus | null => (r && r.online !== null ? { ...r, online: r.online === 1 } : null)

export function sqliteServersRepo(db: Database) {
  const insert = db.prepare(`INSERT INTO server (id, owner_id, slug, name, host, port, edition, version, description, website, hidden, created_at, updated_at)
    VALUES ($id, $ownerId, $slug, $name, $host, $port, $edition, $version, $description, $website, $hidden, $createdAt, $updatedAt)`)
  const update = db.prepare(`UPDATE server SET name = $name, host = $host, port = $port, edition = $edition, version = $version,
    description = $description, website = $website, hidden = $hidden, updated_at = $updatedAt WHERE id = $id`)
  const clearModes = db.prepare('DELETE FROM server_mode WHERE server_id = ?')
  const addMode = db.prepare('INSERT INTO server_mode (server_id, mode) VALUES (?, ?)')
  const bySlug = db.prepare(`SELECT ${cols} FROM server WHERE slug = ?`)
  const byId = db.prepare(`SELECT ${cols} FROM server WHERE id = ?`)
  // The vote path's lookup: no modes subquery.
  const voteTarget = db.prepare(`SELECT id, slug, name, edition, ${LISTED('server')} AS listed FROM server WHERE slug = ?`)
  const byOwner = db.prepare(`SELECT ${cols} FROM server WHERE owner_id = ? ORDER BY created_at, num`)
  const all = db.prepare(`SELECT ${cols} FROM server ORDER BY created_at, num`)
  const slugExists = db.prepare('SELECT 1 FROM server WHERE slug = ?')
  const remove = db.prepare('DELETE FROM server WHERE id = ?')
  const status = db.prepare(`SELECT ${statusCols} FROM server_status st WHERE st.server_num = ?`)
  // One query for a whole page of the ranking, in the order of the ids given.
  const listings = db.prepare(`SELECT s.id, s.edition, ${MODES('s')} AS modes, ${statusCols}
    FROM json_each(?) j JOIN server s ON s.id = j.value LEFT JOIN server_status st ON st.server_num = s.num
    ORDER BY j.key`)
  // What a ping round needs of every listed server, without the long text fields.
  const pingTargets = db.prepare(`SELECT num, host, port, edition, ${MODES('server')} AS modes FROM server WHERE ${LISTED('server')} ORDER BY num`)

  const setModes = (id: string, modes: string[]) => {
    clearModes.run(id)
    for (const m of modes) addMode.run(id, m)
  }

  return {
    insert(s) {
      const { modes: _m, ...fields } = s
      insert.run({ ...fields, hidden: s.hidden ? 1 : 0 })
      setModes(s.id, s.modes)
      return toServer(byId.get(s.id) as Row)!
    },
    update(s) {
      const { num: _n, modes, ownerId: _o, slug: _s, createdAt: _c, listed: _l, ...rest } = s
      update.run({ ...rest, hidden: s.hidden ? 1 : 0 })
      setModes(s.id, modes)
    },
    bySlug: (slug) => toServer(bySlug.get(slug) as Row | null),
    byId: (id) => toServer(byId.get(id) as Row | null),
    voteTarget(slug) {
      const r = voteTarget.get(slug) as (Omit<VoteTarget, 'listed'> & { listed: number }) | null
      return r && { ...r, listed: r.listed === 1 }
    },
    byOwner: (ownerId) => (byOwner.all(ownerId) as Row[]).map((r) => toServer(r)!),
    all: () => (all.all() as Row[]).map((r) => toServer(r)!),
    slugExists: (slug) => slugExists.get(slug) !== null,
    remove: (id) => remove.run(id).changes > 0,
    status: (serverNum) => toStatus(status.get(serverNum) as StatusRow | null),
    listings: (ids) =>
      (listings.all(JSON.stringify(ids)) as (StatusRow & Omit<Listing, 'modes' | 'status'> & { modes: string })[])
        .map((r): Listing => ({ id: r.id, edition: r.edition, modes: JSON.parse(r.modes), status: toStatus(r) })),
    pingTargets: () => (pingTargets.all() as (Omit<PingTarget, 'modes'> & { modes: string })[]).map((r) => ({ ...r, modes: JSON.parse(r.modes) as string[] })),
  } satisfies ServersRepo
}
