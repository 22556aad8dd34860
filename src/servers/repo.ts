import type { Database } from 'bun:sqlite'

export type Edition = 'java' | 'bedrock'

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
  createdAt: number
  updatedAt: number
}

const cols = `num, id, owner_id AS ownerId, slug, name, host, port, edition, version, description, website,
  hidden, created_at AS createdAt, updated_at AS updatedAt,
  (SELECT coalesce(json_group_array(mode), '[]') FROM (SELECT mode FROM server_mode m WHERE m.server_id = server.id ORDER BY mode)) AS modes`
// What a vote needs of its server: the vote path reads only these (no modes subquery).
export type VoteTarget = Pick<Server, 'id' | 'slug' | 'name' | 'edition' | 'hidden'>

type Row = Omit<Server, 'modes' | 'hidden'> & { modes: string; hidden: number }
const toServer = (r: Row | null): Server | null => (r ? { ...r, modes: JSON.parse(r.modes), hidden: r.hidden === 1 } : null)

export function serversRepo(db: Database) {
  const insert = db.prepare(`INSERT INTO server (id, owner_id, slug, name, host, port, edition, version, description, website, hidden, created_at, updated_at)
    VALUES ($id, $ownerId, $slug, $name, $host, $port, $edition, $version, $description, $website, $hidden, $createdAt, $updatedAt)`)
  const update = db.prepare(`UPDATE server SET name = $name, host = $host, port = $port, edition = $edition, version = $version,
    description = $description, website = $website, hidden = $hidden, updated_at = $updatedAt WHERE id = $id`)
  const clearModes = db.prepare('DELETE FROM server_mode WHERE server_id = ?')
  const addMode = db.prepare('INSERT INTO server_mode (server_id, mode) VALUES (?, ?)')
  const bySlug = db.prepare(`SELECT ${cols} FROM server WHERE slug = ?`)
  const byId = db.prepare(`SELECT ${cols} FROM server WHERE id = ?`)
  const voteTarget = db.prepare('SELECT id, slug, name, edition, hidden FROM server WHERE slug = ?')
  const byOwner = db.prepare(`SELECT ${cols} FROM server WHERE owner_id = ? ORDER BY created_at, num`)
  const all = db.prepare(`SELECT ${cols} FROM server ORDER BY created_at, num`)
  const slugExists = db.prepare('SELECT 1 FROM server WHERE slug = ?')
  const remove = db.prepare('DELETE FROM server WHERE id = ?')

  const setModes = (id: string, modes: string[]) => {
    clearModes.run(id)
    for (const m of modes) addMode.run(id, m)
  }
  const params = (s: Omit<Server, 'num' | 'modes'>) => ({ ...s, hidden: s.hidden ? 1 : 0 })

  return {
    insert(s: Omit<Server, 'num'>): Server {
      const num = Number(insert.run(params(s)).lastInsertRowid)
      setModes(s.id, s.modes)
      return { ...s, num }
    },
    update(s: Server) {
      const { num: _n, modes, ownerId: _o, slug: _s, createdAt: _c, ...rest } = s
      update.run({ ...rest, hidden: s.hidden ? 1 : 0 })
      setModes(s.id, modes)
    },
    bySlug: (slug: string) => toServer(bySlug.get(slug) as Row | null),
    byId: (id: string) => toServer(byId.get(id) as Row | null),
    voteTarget(slug: string): VoteTarget | null {
      const r = voteTarget.get(slug) as (Omit<VoteTarget, 'hidden'> & { hidden: number }) | null
      return r && { ...r, hidden: r.hidden === 1 }
    },
    byOwner: (ownerId: string) => (byOwner.all(ownerId) as Row[]).map((r) => toServer(r)!),
    all: () => (all.all() as Row[]).map((r) => toServer(r)!),
    slugExists: (slug: string) => slugExists.get(slug) !== null,
    remove: (id: string) => remove.run(id).changes > 0,
  }
}
export type ServersRepo = ReturnType<typeof serversRepo>
