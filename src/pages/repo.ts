import type { Database } from 'bun:sqlite'
import type { Edition } from '../servers/repo.ts'

// Read-only queries of the public pages that no other repo answers: the latest ping result of a
// server (server_status, written by the statistics pings) and a vote shown back to its voter.

export interface ServerStatus {
  online: boolean
  playersOnline: number
  playersMax: number
  lastPingAt: number
}

export interface Listing {
  id: string
  edition: Edition
  modes: string[]
  status: ServerStatus | null
}

type StatusRow = { online: number | null; playersOnline: number; playersMax: number; lastPingAt: number }
const toStatus = (r: StatusRow): ServerStatus | null =>
  r.online === null ? null : { online: r.online === 1, playersOnline: r.playersOnline, playersMax: r.playersMax, lastPingAt: r.lastPingAt }

const statusCols = 'st.online, st.players_online AS playersOnline, st.players_max AS playersMax, st.last_ping_at AS lastPingAt'

export function pagesRepo(db: Database) {
  const status = db.prepare(`SELECT ${statusCols} FROM server_status st WHERE st.server_num = ?`)
  // One query for a whole page of the ranking, in the order of the ids given.
  const listings = db.prepare(`SELECT s.id, s.edition,
      (SELECT coalesce(json_group_array(mode), '[]') FROM (SELECT mode FROM server_mode m WHERE m.server_id = s.id ORDER BY mode)) AS modes,
      ${statusCols}
    FROM json_each(?) j JOIN server s ON s.id = j.value LEFT JOIN server_status st ON st.server_num = s.num
    ORDER BY j.key`)
  const vote = db.prepare('SELECT id, pseudo, created_at AS createdAt FROM vote WHERE id = ? AND server_id = ?')

  return {
    statusOf: (serverNum: number) => {
      const r = status.get(serverNum) as StatusRow | null
      return r ? toStatus(r) : null
    },
    listings: (ids: string[]): Listing[] =>
      (listings.all(JSON.stringify(ids)) as (StatusRow & { id: string; edition: Edition; modes: string })[])
        .map((r) => ({ id: r.id, edition: r.edition, modes: JSON.parse(r.modes), status: toStatus(r) })),
    voteOf: (serverId: string, voteId: string) => vote.get(voteId, serverId) as { id: string; pseudo: string; createdAt: number } | null,
  }
}
export type PagesRepo = ReturnType<typeof pagesRepo>
