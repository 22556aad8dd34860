import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import { use, type StoreWrites } from '../db/store.ts'
import { notFound, refusal, type Reason } from '../http/errors.ts'
import type { Logger } from '../log.ts'
import { pingServer, type PingDns } from '../ping/pinger.ts'
import type { Server, ServersRepo } from '../servers/repo.ts'
import { claimOf } from '../servers/service.ts'
import { serverAddress } from '../servers/view.ts'

// Proven ownership: the owner puts the listing's token anywhere in the server's MOTD, and the site
// reads it with a ping (the ping round's pinger, with its SSRF rule). What a verification proves
// is that whoever answers at the listed address (the host as written, resolved now, and the port
// or the edition's default) controls the MOTD: for a host name, the server the name points to
// today; for an IP address, the server at that address. The proof is not renewed by the ping
// rounds: the token may be removed once verified, and the listing stays verified until its host,
// port or edition changes.

interface OwnershipTx {
  servers: ServersRepo
}

export interface OwnershipDeps {
  store: OwnershipTx & StoreWrites<OwnershipTx>
  clock: Clock
  config: Config
  log: Logger
  // Tests only: name resolution that never leaves the machine.
  pingDns?: PingDns
}

// 'vl-' + 12 characters of 0-9a-v (60 random bits): short enough for a MOTD line, unique to the
// listing. It need not be secret: it proves something only when it appears in the MOTD.
export function newOwnershipToken(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuv'
  return 'vl-' + Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => alphabet[b & 31]).join('')
}

// The listing's token, made the first time it is asked for. It never expires and does not change.
export async function ownershipToken(deps: OwnershipDeps, server: Pick<Server, 'id' | 'slug'>): Promise<string> {
  const token = await deps.store.write((tx) => use(tx.servers.verificationToken(server.id, newOwnershipToken())))
  if (!token) throw notFound(`no server with the slug "${server.slug}"`)
  return token
}

// What the owner reads: where the token goes, for the server's edition, and what follows.
export function ownershipInstructions(server: Pick<Server, 'edition' | 'host' | 'port'>, token: string): string[] {
  const where = server.edition === 'java'
    ? `Put ${token} anywhere in the server's MOTD: on a Java server, the "motd=" line of server.properties (for example "motd=A Minecraft Server ${token}"); behind a proxy, the proxy's MOTD (BungeeCord: "motd" in config.yml; Velocity: "motd" in velocity.toml).`
    : `Put ${token} anywhere in the server's MOTD: on Bedrock Dedicated Server, the "server-name=" line of server.properties (for example "server-name=Dedicated Server ${token}"); with Geyser, "motd1" or "motd2" in its config.yml. The world name ("level-name") counts too.`
  return [
    where,
    'Restart the server (or reload its MOTD) so that the server list shows it. Formatting codes around the token are fine; letters may be in any case.',
    `Press Verify: the site pings ${serverAddress(server)} at once and looks for the token in the MOTD it reads.`,
    'Once verified, you may remove the token. The listing stays verified until its host, port or edition changes; the token does not expire and belongs to this listing only.',
  ]
}

const MOTD_QUOTE_MAX = 300
const quote = (motd: string) => JSON.stringify(motd.length > MOTD_QUOTE_MAX ? `${motd.slice(0, MOTD_QUOTE_MAX)}…` : motd)

// 409 with the MOTD read (null when the ping failed), for the dashboard and scripts.
const refused = (reason: Reason, message: string, motd: string | null) => refusal(reason, message, { motd })

// Pings the server now and, when its MOTD holds the token, marks the listing verified. The latest
// proof wins: another account's listing of the same address that was verified loses it (its
// owner no longer controls that MOTD). A failed check changes nothing, so a verified listing
// whose token was removed stays verified.
export async function verifyOwnership(deps: OwnershipDeps, server: Server): Promise<{ verifiedAt: number; motd: string; token: string }> {
  const token = await ownershipToken(deps, server)
  const { stats, network } = deps.config
  const where = serverAddress(server)
  const status = await pingServer(server, { timeoutMs: stats.ping_timeout_seconds * 1000, allowPrivate: network.allow_private_targets, dns: deps.pingDns })
  const kept = server.verifiedAt !== null ? ' The listing stays verified.' : ''
  if (!status.online) throw refused('MOTD_UNREADABLE', `could not read the MOTD of ${where}: ${status.error ?? 'no answer'}. Check that the server is running and reachable at this address, then verify again.${kept}`, null)
  const motd = status.motd ?? ''
  if (!motd.toLowerCase().includes(token)) {
    throw refused('TOKEN_NOT_IN_MOTD', `the MOTD of ${where} does not contain ${token}: it reads ${quote(motd)}. Put the token in the MOTD, restart or reload the server, then verify again.${kept}`, motd)
  }
  const at = deps.clock.now()
  const taken = await deps.store.write(function* (tx) {
    const current = yield* use(tx.servers.byId(server.id))
    if (!current) throw notFound(`no server with the slug "${server.slug}"`)
    // The address may have changed while the ping ran: the proof is for the old one.
    if (claimOf(current) !== claimOf(server) || current.edition !== server.edition) {
      throw refused('ADDRESS_CHANGED', 'the server\'s address changed while it was checked: verify again', motd)
    }
    yield* use(tx.servers.setVerified(server.id, at))
    return yield* use(tx.servers.unverifyRivals(server.id))
  })
  if (taken.length) deps.log.info('ownership proved: other accounts\' listings of the address lost their verification', { slug: server.slug, address: claimOf(server), unverified: taken })
  return { verifiedAt: at, motd, token }
}
