import type { ChannelsRepo } from '../channels/repo.ts'
import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import type { SiteUrl } from '../http/site-url.ts'
import type { Lookup } from '../net/guard.ts'
import { discordMessage } from '../discord/message.ts'
import { sendDiscord } from '../discord/send-discord.ts'
import { pushVote } from '../push/push-vote.ts'
import type { VotifierVote } from '../push/votifier-connection.ts'
import { sendWebhook, type WebhookEvent } from '../webhooks/send-webhook.ts'
import type { Delivery, VoteEvent } from './repo.ts'

export interface ChannelDeps {
  store: { channels: ChannelsRepo }
  config: Config
  siteUrl: SiteUrl
  clock: Clock
  // Tests only: a resolver that never leaves the machine, a CA for a local https receiver.
  net?: { lookup?: Lookup; ca?: string }
}

// What a Votifier listener receives of a vote.
export const votifierVoteOf = (event: VoteEvent, serviceName: string): VotifierVote => ({
  serviceName,
  username: event.vote.pseudo,
  address: event.address ?? '0.0.0.0',
  timestamp: event.vote.createdAt,
})

// The contract's webhook body.
export function webhookBody(event: VoteEvent, kind: WebhookEvent): string {
  return JSON.stringify({
    event: kind,
    server: { id: event.server.id, slug: event.server.slug, name: event.server.name },
    vote: { id: event.vote.id, pseudo: event.vote.pseudo, createdAt: new Date(event.vote.createdAt).toISOString() },
    monthlyVotes: event.monthlyVotes,
  })
}

// The Discord message of a vote (or a test), with a link to the server's page.
export const discordBody = (event: VoteEvent, test: boolean, config: Config, siteUrl: SiteUrl) => discordMessage({
  pseudo: event.vote.pseudo,
  server: { name: event.server.name, url: `${siteUrl.base()}/serveur/${event.server.slug}` },
  monthlyVotes: event.monthlyVotes,
  votedAt: event.vote.createdAt,
  test,
  siteName: config.site.name,
})

// Where one delivery goes, with the owner's settings as they are now (a fixed URL, key or token
// applies to the next retry), and the target it counts against in the concurrency gate.
// `pauseMs`: the receiver asked for a pause before the next message to this target.
export interface ChannelTarget {
  target: string
  send(): Promise<{ httpStatus: number | null; pauseMs?: number }>
}

export async function channelTarget(deps: ChannelDeps, d: Delivery): Promise<ChannelTarget | null> {
  const allowPrivate = deps.config.network.allow_private_targets
  const lookup = deps.net?.lookup
  if (d.channel === 'votifier') {
    const settings = await deps.store.channels.votifier(d.serverId)
    if (!settings) return null
    const timeouts = { connectMs: deps.config.deliveries.votifier_connect_timeout, readMs: deps.config.deliveries.votifier_read_timeout }
    return {
      target: `votifier ${settings.host.toLowerCase()}:${settings.port}`,
      async send() {
        await pushVote(settings, votifierVoteOf(d.payload, deps.config.site.service_name), { allowPrivate, lookup, timeouts })
        return { httpStatus: null }
      },
    }
  }
  if (d.channel === 'discord') {
    const settings = await deps.store.channels.discord(d.serverId)
    if (!settings) return null
    return {
      // Discord limits each webhook on its own: its id (the URL's path without the token).
      target: `discord ${settings.url.replace(/\/[^/]*$/, '')}`,
      send: () => sendDiscord(settings.url, discordBody(d.payload, d.test, deps.config, deps.siteUrl), { allowPrivate, lookup, ca: deps.net?.ca, timeoutMs: deps.config.deliveries.webhook_timeout }),
    }
  }
  const settings = await deps.store.channels.webhook(d.serverId)
  if (!settings) return null
  const event = d.test ? 'test' : 'vote'
  return {
    target: `webhook ${URL.canParse(settings.url) ? new URL(settings.url).origin : settings.url}`,
    send: () => sendWebhook(
      { url: settings.url, secret: settings.secret, deliveryId: d.id, event, body: webhookBody(d.payload, event) },
      { allowPrivate, lookup, ca: deps.net?.ca, timeoutMs: deps.config.deliveries.webhook_timeout, now: deps.clock.now },
    ),
  }
}
