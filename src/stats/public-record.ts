import { notFound } from '../http/errors.ts'
import { iso } from '../http/schema.ts'
import type { Runtime } from '../runtime.ts'
import type { Server } from '../servers/repo.ts'
import { ownerServerJson } from '../servers/view.ts'
import { DAY } from './repo.ts'

type Deps = Pick<Runtime, 'ranking' | 'stats' | 'config' | 'clock'>

// A listed server by slug; hidden servers do not exist for the public.
export function listedServer(deps: Pick<Runtime, 'servers'>, slug: string): Server {
  const server = deps.servers.bySlug(slug)
  if (!server || server.hidden) throw notFound(`no server with the slug "${slug}"`)
  return server
}

// The owner's view of the listing (same address, rank, votes and URLs), without what only the
// owner sees, plus the last ping and the 24 h uptime.
export function publicRecord(deps: Deps, server: Server, now: number) {
  const { host: _host, port: _port, hidden: _hidden, updatedAt: _updated, ...listing } = ownerServerJson(deps, server)
  const status = deps.stats.status(server.num)
  const uptime = deps.stats.uptimeSince(server.num, now - DAY)
  return {
    ...listing,
    version: server.version || status?.version || '',
    online: status?.online ?? false,
    players: { online: status?.playersOnline ?? 0, max: status?.playersMax ?? 0 },
    motd: status?.motd ?? null,
    latencyMs: status?.online ? status.latencyMs : null,
    lastPingAt: status ? iso(status.lastPingAt) : null,
    uptime: uptime === null ? null : Math.round(uptime * 10_000) / 10_000,
  }
}
