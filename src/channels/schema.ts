import type { SchemaOptions } from '@sinclair/typebox'
import { t } from 'elysia'
import { Int, merged } from '../http/schema.ts'
import { OwnerListItem } from '../servers/schema.ts'

// Bodies and answers of the webhook, Discord and Votifier settings routes.

// Where a vote's notifications go.
export const channelSchema = (options?: SchemaOptions) => t.Union([t.Literal('votifier'), t.Literal('webhook'), t.Literal('discord')], options)
const ChannelValue = channelSchema()
export type Channel = typeof ChannelValue.static

// Each channel as messages name it ("the Discord webhook was removed…").
export const CHANNEL_LABELS: Record<Channel, string> = { votifier: 'Votifier target', webhook: 'webhook', discord: 'Discord webhook' }

const protocolSchema = (options?: SchemaOptions) => t.Union([t.Literal('v1'), t.Literal('v2')], options)
const ProtocolValue = protocolSchema()
export type VotifierProtocol = typeof ProtocolValue.static

// A saved URL that the site's rules refuse now (see the channels' routes).
const REFUSED = t.String({ description: 'present when this site would not send to the saved URL now, with why: its admin turned `network.allow_private_targets` off after the URL was saved (an http:// webhook; a Discord URL that is not Discord\'s). Every delivery and test to it fails with this reason until an allowed URL is saved; the failed deliveries are retried on the schedule, and can be redelivered.', examples: ['http:// targets are not allowed on this site (network.allow_private_targets is off): set an https:// URL'] })

export const WebhookPut = t.Object({
  url: t.String({ minLength: 1, maxLength: 2000, error: 'url must be an https:// URL of at most 2000 characters', examples: ['https://example.com/votelist-hook'] }),
})
export type WebhookPut = typeof WebhookPut.static

export const WebhookJson = t.Object({
  url: t.String(),
  secret: t.String({ description: 'whsec_… — the HMAC-SHA256 key of X-TSM-Signature (its UTF-8 bytes)' }),
  refused: t.Optional(REFUSED),
})

// A pasted v2 token goes into the listener's YAML: keep it to characters that are no YAML
// indicator (the config line quotes it where YAML 1.1 would read it as a number, a boolean…),
// and long enough to be a secret.
export const TOKEN = /^[A-Za-z0-9_.+\/=-]{16,128}$/

export const VotifierPut = t.Object({
  host: t.String({ minLength: 1, maxLength: 253, error: 'host must be a hostname or an IP address', examples: ['play.example.com'] }),
  port: t.Optional(t.Integer({ minimum: 1, maximum: 65535, error: 'port must be an integer from 1 to 65535', examples: [8192] })),
  protocol: protocolSchema({ error: 'protocol must be "v1" or "v2"' }),
  publicKey: t.Optional(t.String({ maxLength: 10_000, error: 'publicKey must be the contents of the listener\'s rsa/public.key' })),
  token: t.Optional(t.String({ pattern: TOKEN.source, error: 'token must be 16 to 128 of A-Z, a-z, 0-9 and _ . + / = -' })),
  newToken: t.Optional(t.Boolean({ error: 'newToken must be true or false' })),
})
export type VotifierPut = typeof VotifierPut.static

export const VotifierJson = t.Object({
  host: t.String(),
  port: Int(),
  protocol: protocolSchema(),
  publicKey: t.Optional(t.String({ description: 'v1: the listener\'s public key, base64 X.509' })),
  token: t.Optional(t.String({ description: 'v2: the token shared with the listener' })),
  configLine: t.Optional(t.String({ description: 'v2: the exact line to paste under `tokens:` in the listener\'s config.yml; the service name and the token are in double quotes where YAML 1.1 (SnakeYAML) would otherwise read them as a number, boolean, null or date', examples: ['MyServerList: k3j4h5g6f7d8s9a0q1w2e3r4t5', 'MyServerList: "0123456701234567"'] })),
})

export const DiscordPut = t.Object({
  url: t.String({ minLength: 1, maxLength: 2000, error: 'url must be a Discord webhook URL of at most 2000 characters', examples: ['https://discord.com/api/webhooks/123456789012345678/AbCdEf…'] }),
})
export type DiscordPut = typeof DiscordPut.static

export const DiscordJson = t.Object({
  url: t.String({ description: 'the Discord webhook URL; its last part is the webhook\'s token, a secret' }),
  refused: t.Optional(REFUSED),
})

export const WebhookAnswer = t.Object({ ok: t.Literal(true), webhook: WebhookJson })
export const DiscordAnswer = t.Object({ ok: t.Literal(true), discord: DiscordJson })
export const VotifierAnswer = t.Object({ ok: t.Literal(true), votifier: VotifierJson })

// One server as its owner manages it: the listing, the last ping and the notification settings.
export const ServerDetail = t.Object({
  ok: t.Literal(true),
  server: merged(OwnerListItem, t.Object({
    webhook: t.Union([WebhookJson, t.Null()]), votifier: t.Union([VotifierJson, t.Null()]), discord: t.Union([DiscordJson, t.Null()]),
  })),
})
