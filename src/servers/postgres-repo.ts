import { exec, row, rows, type Pg } from '../db/postgres-client.ts'
import type { Listing, PingTarget, Server, ServersRepo, ServerStatus, VoteTarget } from './repo.ts'

// A server's modes as a text array in mode order (mode is COLLATE "C": byte order, as on SQLite).
const MODES = (server: string) => `ARRAY(SELECT mode FROM server_mode m WHERE m.server_id = ${server}.id ORDER BY mode)`

const cols = `num, id, owner_id AS "ownerId", slug, name, host, port, edition, version, description, website,
  hidden, created_at AS "createdAt", updated_at AS "updatedAt", ${MODES('server')} AS modes`

type Row = Omit<Server, 'hidden'> & { hidden: number }
const toServer = (r: Row | null): Server | null => (r ? { ...r, hidden: r.hidden === 1 } : null)

const statusCols = `st.online, st.players_online AS "playersOnline", st.players_max AS "playersMax", st.version, st.motd,
  st.latency_ms AS "latencyMs", st.error, st.last_ping_at AS "lastPingAt"`
type StatusRow = Omit<ServerStatus, 'online'> & { online: number | null }
// A server not pinged yet has no status row (in a LEFT JOIN: a row of nulls).
const toStatus = (r: StatusRow | null): ServerStatus | null => (r && r.online !== null ? { ...r, online: r.online === 1 } : null)

const INSERT = `INSERT INTO server (id, owner_id, slug, name, host, port, edition, version, description, website, hidden, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING num`
const UPDATE = `UPDATE server SET name = $2, host = $3, port = $4, edition = $5, version = $6, description = $7, website = $8,
  hidden = $9, updated_at = $10 WHERE id = $1`
// One query for a whole page of the ranking, in the order of the ids given.
const LISTINGS = `SELECT s.id, s.edition, ${MODES('s')} AS modes, ${statusCols}
  FROM unnest($1::text[]) WITH ORDINALITY AS j(id, n) JOIN server s ON s.id = j.id LEFT JOIN server_status st ON st.server_num = s.num
  ORDER BY j.n`

export function postgresServersRepo(pg: Pg) {
  const setModes = async (id: string, modes: string[]) => {
    await exec(pg, 'DELETE FROM server_mode WHERE server_id = $1', [id])
    if (modes.length) await exec(pg, 'INSERT INTO server_mode (server_id, mode) SELECT $1, unnest($2::text[])', [id, modes])
  }
  const one = async (where: string, value: string) => toServer(await row<Row>(pg, `SELECT ${cols} FROM server WHERE ${where} = $1`, [value]))

  return {
    async insert(s) {
      const { num } = (await row<{ num: number }>(pg, INSERT, [
        s.id, s.ownerId, s.slug, s.name, s.host, s.port, s.edition, s.version, s.description, s.website, s.hidden ? 1 : 0, s.createdAt, s.updatedAt,
      ]))!
      await setModes(s.id, s.modes)
      return { ...s, num }
    },
    async update(s) {
      await exec(pg, UPDATE, [s.id, s.name, s.host, s.port, s.edition, s.version, s.description, s.website, s.hidden ? 1 : 0, s.updatedAt])
      await setModes(s.id, s.modes)
    },
    bySlug: (slug) => one('slug', slug),
    byId: (id) => one('id', id),
    async voteTarget(slug) {
      const r = await row<Omit<VoteTarget, 'hidden'> & { hidden: number }>(pg, 'SELECT id, slug, name, edition, hidden FROM server WHERE slug = $1', [slug])
      return r && { ...r, hidden: r.hidden === 1 }
    },
    byOwner: async (ownerId) => (await rows<Row>(pg, `SELECT ${cols} FROM server WHERE owner_id = $1 ORDER BY created_at, num`, [ownerId])).map((r) => toServer(r)!),
    all: async () => (await rows<Row>(pg, `SELECT ${cols} FROM server ORDER BY created_at, num`)).map((r) => toServer(r)!),
    slugExists: async (slug) => (await row(pg, 'SELECT 1 FROM server WHERE slug = $1', [slug])) !== null,
    remove: async (id) => (await exec(pg, 'DELETE FROM server WHERE id = $1', [id])) > 0,
    status: async (serverNum) => toStatus(await row<StatusRow>(pg, `SELECT ${statusCols} FROM server_status st WHERE st.server_num = $1`, [serverNum])),
    listings: async (ids) => (await rows<StatusRow & Omit<Listing, 'status'>>(pg, LISTINGS, [ids]))
      .map((r): Listing => ({ id: r.id, edition: r.edition, modes: r.modes, status: toStatus(r) })),
    pingTargets: () => rows<PingTarget>(pg, `SELECT num, host, port, edition, ${MODES('server')} AS modes FROM server WHERE hidden = 0 ORDER BY num`),
  } satisfies ServersRepo
}
