import { iso } from '../http/schema.ts'
import type { Server, ServersRepo } from '../servers/repo.ts'
import { ownerServerJson, type ViewDeps } from '../servers/view.ts'
import { DAY, type StatsRepo } from './repo.ts'
import type { PublicServer } from './schema.ts'

export interface PublicRecordDeps extends ViewDeps {
  store: ViewDeps['store'] & { servers: ServersRepo; stats: StatsRepo }
}

// The owner's view of the listing (same address, rank, votes and URLs), without what only the
// owner sees, plus the last ping and the 24 h uptime.
export async function publicRecord(deps: PublicRecordDeps, server: Server, now: number): Promise<PublicServer> {
  const { host: _host, port: _port, hidden: _hidden, updatedAt: _updated, verifiedAt: _verifiedAt, listed: _listed, unlistedReason: _reason, ...listing } = await ownerServerJson(deps, server)
  const status = await deps.store.servers.status(server.num)
  const uptime = await deps.store.stats.uptimeSince(server.num, now - DAY)
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
