import type { AuditRepo } from '../audit/repo.ts'
import { auditOnServer, type ServerActor } from '../audit/service.ts'
import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import { use, type StoreWrites, type TxScript } from '../db/store.ts'
import { DISCORD_SHAPE, discordUrlRefusal } from '../discord/discord-url.ts'
import { invalidParameter, notFound } from '../http/errors.ts'
import { randomSecret } from '../ids.ts'
import { withDeadline } from '../net/deadline.ts'
import { resolveTarget, seconds, TargetRefused, type Lookup } from '../net/guard.ts'
import { parseVotifierPublicKey } from '../push/public-key.ts'
import type { ServersRepo } from '../servers/repo.ts'
import { checkHost } from '../servers/service.ts'
import { webhookUrlRefusal, type UrlRefusal } from '../webhooks/webhook-url.ts'
import type { ChannelsRepo, DiscordSettings, VotifierSettings, WebhookSettings } from './repo.ts'
import type { VotifierPut } from './schema.ts'
import { yamlScalar } from './yaml-scalar.ts'

interface ChannelsTx {
  channels: ChannelsRepo
  servers: ServersRepo
  audit: AuditRepo
}

export type Channel = 'webhook' | 'votifier' | 'discord'

export interface ChannelsDeps {
  store: ChannelsTx & StoreWrites<ChannelsTx>
  clock: Clock
  config: Config
  // Name resolution for the save-time target check; tests inject one.
  lookup?: Lookup
}

export const VOTIFIER_DEFAULT_PORT = 8192

// whsec_ + 43 base64url characters = 256 random bits (the contract's minimum).
export const newWebhookSecret = () => `whsec_${randomSecret(32)}`

// 32 characters of 0-9a-v (base32, as NuVotifier's own generated tokens) = 160 random bits.
export function newVotifierToken(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuv'
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => alphabet[b & 31]).join('')
}

// Save-time half of the contract's target rule (the push code checks again at connect time):
// the host must resolve, and not to a private address unless network.allow_private_targets. The
// lookup waits at most as long as a delivery's would (`timeoutMs`), so that a resolver that does
// not answer gets the owner an answer rather than a request left hanging.
async function checkTarget(deps: ChannelsDeps, field: string, host: string, timeoutMs: number): Promise<void> {
  try {
    const late = () => new TargetRefused(`${host} did not resolve within ${seconds(timeoutMs)} (timed out); try again, or check the host name`, 'unresolved')
    await withDeadline(resolveTarget(host, deps.config.network.allow_private_targets, deps.lookup), timeoutMs, late)
  } catch (e) {
    if (e instanceof TargetRefused) throw invalidParameter(`${field} refused: ${e.message}`, field)
    throw e
  }
}

// The URL rules under the site's policy (src/webhooks/webhook-url.ts, checked again at every send),
// then the target check.
export async function checkWebhookUrl(deps: ChannelsDeps, text: string): Promise<string> {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw invalidParameter('url must be an absolute https:// URL', 'url')
  }
  const refused = webhookUrlRefusal(url, deps.config.network.allow_private_targets)
  if (refused) throw invalidParameter(refused.save, 'url')
  await checkTarget(deps, 'url', url.hostname, deps.config.deliveries.webhook_timeout)
  return url.href
}

// A Discord webhook URL, strictly unless private targets are allowed (src/discord/discord-url.ts,
// checked again at every send), its path without trailing slashes; then the target check.
export async function checkDiscordUrl(deps: ChannelsDeps, text: string): Promise<string> {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw invalidParameter(DISCORD_SHAPE, 'url')
  }
  url.pathname = url.pathname.replace(/\/+$/, '')
  const refused = discordUrlRefusal(url, deps.config.network.allow_private_targets)
  if (refused) throw invalidParameter(refused.save, 'url')
  await checkTarget(deps, 'url', url.hostname, deps.config.deliveries.webhook_timeout)
  return url.href
}

// The target checks await name resolution, so the write re-reads the server: it may have been
// deleted meanwhile. Answers the settings as saved. `by`: who changes it through the routes (an
// administrator's change to another account's server is audited).
function write<T>(deps: ChannelsDeps, serverId: string, script: (tx: ChannelsTx) => TxScript<T>, by: ServerActor | undefined, channel: Channel, change: 'set' | 'rotate'): Promise<T> {
  return deps.store.write(function* (tx) {
    if (!(yield* use(tx.servers.byId(serverId)))) throw notFound('this server no longer exists')
    const done = yield* script(tx)
    yield* auditOnServer(tx, deps.clock.now(), by, change === 'set' ? 'server.channel_set' : 'server.channel_rotate', { channel })
    return done
  })
}

// Removes a delivery target; nothing to remove is no change (and nothing audited).
export function removeChannel(deps: ChannelsDeps, serverId: string, channel: Channel, by?: ServerActor): Promise<void> {
  return deps.store.write(function* (tx) {
    const removed = yield* use(channel === 'webhook' ? tx.channels.deleteWebhook(serverId)
      : channel === 'votifier' ? tx.channels.deleteVotifier(serverId) : tx.channels.deleteDiscord(serverId))
    if (removed) yield* auditOnServer(tx, deps.clock.now(), by, 'server.channel_remove', { channel })
  })
}

// Sets the webhook URL. The secret is generated on the first save and kept when only the URL
// changes, so a receiver keeps verifying across a move.
export async function saveWebhook(deps: ChannelsDeps, serverId: string, url: string, by?: ServerActor): Promise<WebhookSettings> {
  const checked = await checkWebhookUrl(deps, url)
  return write(deps, serverId, function* (tx) {
    // The secret kept by the statement itself: a save that read no webhook may meet one another
    // save has just set (PostgreSQL runs them at once).
    yield* use(tx.channels.putWebhook(serverId, checked, newWebhookSecret(), deps.clock.now(), true))
    return (yield* use(tx.channels.webhook(serverId)))!
  }, by, 'webhook', 'set')
}

export function rotateWebhookSecret(deps: ChannelsDeps, serverId: string, by?: ServerActor): Promise<WebhookSettings> {
  return write(deps, serverId, function* (tx) {
    const current = yield* use(tx.channels.webhook(serverId))
    if (!current) throw notFound('no webhook is set for this server; PUT one first')
    yield* use(tx.channels.putWebhook(serverId, current.url, newWebhookSecret(), deps.clock.now()))
    return (yield* use(tx.channels.webhook(serverId)))!
  }, by, 'webhook', 'rotate')
}

export async function saveDiscord(deps: ChannelsDeps, serverId: string, url: string, by?: ServerActor): Promise<DiscordSettings> {
  const checked = await checkDiscordUrl(deps, url)
  return write(deps, serverId, function* (tx) {
    yield* use(tx.channels.putDiscord(serverId, checked, deps.clock.now()))
    return (yield* use(tx.channels.discord(serverId)))!
  }, by, 'discord', 'set')
}

// The protocol's credential, checked before anything is resolved or written.
function checkVotifierCredential(input: VotifierPut): string | null {
  if (input.protocol === 'v1') {
    if (input.token !== undefined || input.newToken) throw invalidParameter('token and newToken are for protocol v2; v1 uses publicKey', input.token !== undefined ? 'token' : 'newToken')
    if (input.publicKey === undefined) throw invalidParameter('publicKey is required for protocol v1: paste the listener\'s rsa/public.key', 'publicKey')
    return parseVotifierPublicKey(input.publicKey)
  }
  if (input.publicKey !== undefined) throw invalidParameter('publicKey is for protocol v1; v2 uses a token', 'publicKey')
  if (input.token !== undefined && input.newToken) throw invalidParameter('give either token or newToken, not both')
  return null
}

// Sets the Votifier target. v1: the pasted 2048-bit public key; v2: the pasted token, or the one
// already stored (the listener holds it), or a new one generated here when there is none or the
// owner asks (newToken).
export async function saveVotifier(deps: ChannelsDeps, serverId: string, input: VotifierPut, by?: ServerActor): Promise<VotifierSettings> {
  const host = checkHost(input.host) // syntax and numeric forms only: the resolved target is checked next
  const publicKey = checkVotifierCredential(input)
  await checkTarget(deps, 'host', host, deps.config.deliveries.votifier_connect_timeout)
  return write(deps, serverId, function* (tx) {
    const current = yield* use(tx.channels.votifier(serverId))
    const kept = !input.newToken && current?.protocol === 'v2' ? current.token : null
    const token = input.protocol === 'v2' ? (input.token ?? kept ?? newVotifierToken()) : null
    yield* use(tx.channels.putVotifier({ serverId, host, port: input.port ?? VOTIFIER_DEFAULT_PORT, protocol: input.protocol, publicKey, token }, deps.clock.now()))
    return (yield* use(tx.channels.votifier(serverId)))!
  }, by, 'votifier', 'set')
}

// The line to paste under `tokens:` in NuVotifier's config.yml: `<service_name>: <token>`, each
// side double-quoted where YAML 1.1 would otherwise not read it as that exact string.
export const votifierConfigLine = (serviceName: string, token: string) => `${yamlScalar(serviceName)}: ${yamlScalar(token)}`

// `refused`: why the site would not send to the saved URL now (the admin turned
// network.allow_private_targets off after it was saved), for the owner's settings; absent when its
// rules pass. The address is not looked up here: every attempt checks it.
function refusedNow(url: string, config: Config, rule: (url: URL, allowPrivate: boolean) => UrlRefusal | null) {
  const refused = URL.canParse(url) ? rule(new URL(url), config.network.allow_private_targets) : null
  return refused ? { refused: refused.send } : {}
}

export const webhookJson = (w: WebhookSettings, config: Config) => ({ url: w.url, secret: w.secret, ...refusedNow(w.url, config, webhookUrlRefusal) })
export const discordJson = (d: DiscordSettings, config: Config) => ({ url: d.url, ...refusedNow(d.url, config, discordUrlRefusal) })

export function votifierJson(v: VotifierSettings, config: Config) {
  const base = { host: v.host, port: v.port, protocol: v.protocol }
  if (v.protocol === 'v1') return { ...base, publicKey: v.publicKey! }
  return { ...base, token: v.token!, configLine: votifierConfigLine(config.site.service_name, v.token!) }
}
