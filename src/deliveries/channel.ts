import type { ChannelsRepo, DiscordSettings, VotifierSettings, WebhookSettings } from '../channels/repo.ts'
import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import type { Awaitable } from '../db/store.ts'
import type { SiteUrl } from '../http/site-url.ts'
import type { Lookup } from '../net/guard.ts'
import { discordMessage } from '../discord/message.ts'
import { sendDiscord } from '../discord/send-discord.ts'
import { pushVote } from '../push/push-vote.ts'
import type { VotifierVote } from '../push/votifier-connection.ts'
import { sendWebhook, type WebhookEvent } from '../webhooks/send-webhook.ts'
import type { Delivery, VoteEvent } from './repo.ts'

export interface ChannelDeps {
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
  language: config.site.language,
})

// The owner's settings of a delivery's channel as they are now (a fixed URL, key or token applies
// to the next retry); null once the channel is removed. A repository call, so that it can be read
// in a transaction script as well as outside one.
export type ChannelSettings = VotifierSettings | WebhookSettings | DiscordSettings

export const channelSettings = (channels: ChannelsRepo, d: Pick<Delivery, 'channel' | 'serverId'>): Awaitable<ChannelSettings | null> =>
  d.channel === 'votifier' ? channels.votifier(d.serverId) : d.channel === 'discord' ? channels.discord(d.serverId) : channels.webhook(d.serverId)

// Where one delivery goes, with its channel's settings, and the target it counts against in the
// concurrency gate. `pauseMs`: the receiver asked for a pause before the next message to this
// target.
export interface ChannelTarget {
  target: string
  send(): Promise<{ httpStatus: number | null; pauseMs?: number }>
}

export function channelTarget(deps: ChannelDeps, d: Delivery, settings: ChannelSettings | null): ChannelTarget | null {
  if (!settings) return null
  const allowPrivate = deps.config.network.allow_private_targets
  const lookup = deps.net?.lookup
  if (d.channel === 'votifier') {
    const listener = settings as VotifierSettings
    const timeouts = { connectMs: deps.config.deliveries.votifier_connect_timeout, readMs: deps.config.deliveries.votifier_read_timeout }
    return {
      target: `votifier ${listener.host.toLowerCase()}:${listener.port}`,
      async send() {
        await pushVote(listener, votifierVoteOf(d.payload, deps.config.site.service_name), { allowPrivate, lookup, timeouts })
        return { httpStatus: null }
      },
    }
  }
  if (d.channel === 'discord') {
    const { url } = settings as DiscordSettings
    return {
      // Discord limits each webhook on its own: its id (the URL's path without the token).
      target: `discord ${url.replace(/\/[^/]*$/, '')}`,
      send: () => sendDiscord(url, discordBody(d.payload, d.test, deps.config, deps.siteUrl), { allowPrivate, lookup, ca: deps.net?.ca, timeoutMs: deps.config.deliveries.webhook_timeout, test: d.test }),
    }
  }
  const { url, secret } = settings as WebhookSettings
  const event = d.test ? 'test' : 'vote'
  return {
    target: `webhook ${URL.canParse(url) ? new URL(url).origin : url}`,
    send: () => sendWebhook(
      { url, secret, deliveryId: d.id, event, body: webhookBody(d.payload, event) },
      { allowPrivate, lookup, ca: deps.net?.ca, timeoutMs: deps.config.deliveries.webhook_timeout, now: deps.clock.now },
    ),
  }
}
