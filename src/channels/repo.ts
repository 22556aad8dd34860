import type { Awaitable } from '../db/store.ts'
import type { Channel, VotifierProtocol } from './schema.ts'

// The owner's notification settings of a server: at most one webhook, one Votifier target and one
// Discord webhook.

export interface WebhookSettings {
  serverId: string
  url: string
  secret: string
  createdAt: number
  updatedAt: number
}

export interface VotifierSettings {
  serverId: string
  host: string
  port: number
  protocol: VotifierProtocol
  publicKey: string | null // v1: base64 DER SubjectPublicKeyInfo
  token: string | null // v2
  createdAt: number
  updatedAt: number
}

export interface DiscordSettings {
  serverId: string
  url: string
  createdAt: number
  updatedAt: number
}

export interface ChannelsRepo {
  // The channels the owner has configured for this server, in a fixed order.
  configured(serverId: string): Awaitable<Channel[]>
  webhook(serverId: string): Awaitable<WebhookSettings | null>
  // `keepSecret`: a webhook already set keeps its secret (`secret` is then only a new one's), in
  // the statement that writes it, so that two first saves at once end with one secret.
  putWebhook(serverId: string, url: string, secret: string, at: number, keepSecret?: boolean): Awaitable<void>
  deleteWebhook(serverId: string): Awaitable<boolean>
  votifier(serverId: string): Awaitable<VotifierSettings | null>
  putVotifier(s: Omit<VotifierSettings, 'createdAt' | 'updatedAt'>, at: number): Awaitable<void>
  deleteVotifier(serverId: string): Awaitable<boolean>
  discord(serverId: string): Awaitable<DiscordSettings | null>
  putDiscord(serverId: string, url: string, at: number): Awaitable<void>
  deleteDiscord(serverId: string): Awaitable<boolean>
}
