import { Elysia } from 'elysia'
import { ownerAuth } from '../accounts/guard.ts'
import type { User } from '../accounts/repo.ts'
import type { ServerActor } from '../audit/service.ts'
import { Invalid, Ok, ServerErrors } from '../accounts/schema.ts'
import type { SessionDeps } from '../accounts/session.ts'
import { notFound } from '../http/errors.ts'
import { refuseUnknownFields } from '../http/strict-body.ts'
import { SlugParams } from '../servers/schema.ts'
import { ownedServer, ownedServerBy } from '../servers/service.ts'
import { liveStatus, ownerServerJson, type ViewDeps } from '../servers/view.ts'
import { DiscordAnswer, DiscordPut, ServerDetail, VotifierAnswer, VotifierPut, WebhookAnswer, WebhookPut } from './schema.ts'
import { discordJson, removeChannel, rotateWebhookSecret, saveDiscord, saveVotifier, saveWebhook, votifierJson, webhookJson, type ChannelsDeps } from './service.ts'

export type ChannelRoutesDeps = ChannelsDeps & ViewDeps & SessionDeps

const webhookTags = ['Owner: webhook']
const votifierTags = ['Owner: Votifier']
const discordTags = ['Owner: Discord']
// The URL's rules too: an admin may have turned network.allow_private_targets off since the save.
const urlRulesAgain = 'The URL rules are checked again at every delivery and test, under the site\'s settings then: a URL they now refuse fails the attempt with the reason (retried on the schedule; it never reaches the network).'
const targetRule = 'The host must resolve, and not to a loopback, private, link-local, CGNAT, multicast or unspecified address unless `network.allow_private_targets = true` (400 otherwise); it is checked again at every delivery.'

// The owner's notification channels of a server: one webhook, one Votifier target, one Discord
// webhook; and the server as its owner manages it, with all three.
export function channelRoutes(rt: ChannelRoutesDeps) {
  const { store } = rt
  const serverOf = async (user: { id: string; isAdmin: boolean }, slug: string) => (await ownedServer(store.servers, user, slug)).id
  // A change: the server and who makes it (an administrator's, on another account's server, is audited).
  const change = async <T>(user: User, slug: string, save: (serverId: string, by: ServerActor) => Promise<T>) => {
    const by = await ownedServerBy(store.servers, user, slug)
    return save(by.server.id, by)
  }

  return new Elysia({ name: 'channels.routes' })
    .use(ownerAuth(rt))
    .get('/api/v1/me/servers/:slug', async ({ user, params }) => {
      const s = await ownedServer(store.servers, user, params.slug)
      const webhook = await store.channels.webhook(s.id)
      const votifier = await store.channels.votifier(s.id)
      const discord = await store.channels.discord(s.id)
      return {
        ok: true as const,
        server: {
          ...(await ownerServerJson(rt, s)),
          ...(await liveStatus(rt, s)),
          webhook: webhook && webhookJson(webhook, rt.config),
          votifier: votifier && votifierJson(votifier, rt.config),
          discord: discord && discordJson(discord, rt.config),
        },
      }
    }, {
      owner: true, params: SlugParams,
      response: { 200: ServerDetail, ...ServerErrors() },
      detail: { summary: 'One of my servers', tags: ['Owner: servers'], description: 'The server with its notification settings: `webhook` `{url, secret}` (the secret is revealed here to the owner) and `votifier` `{host, port, protocol, publicKey | token + configLine}` and `discord` `{url}`, each null when not set; `webhook` and `discord` add `refused` (the reason) when the site would not send to the saved URL now (its admin turned `network.allow_private_targets` off after it was saved). 403 for another account\'s server, 404 for an unknown slug.' },
    })
    .get('/api/v1/me/servers/:slug/webhook', async ({ user, params }) => {
      const w = await store.channels.webhook(await serverOf(user, params.slug))
      if (!w) throw notFound('no webhook is set for this server')
      return { ok: true as const, webhook: webhookJson(w, rt.config) }
    }, {
      owner: true, params: SlugParams,
      response: { 200: WebhookAnswer, ...ServerErrors('no server with this slug, or no webhook set') },
      detail: { summary: 'The webhook', tags: webhookTags, description: 'The webhook URL and its signing secret (revealed to the owner). 404 when none is set.' },
    })
    .put('/api/v1/me/servers/:slug/webhook', async ({ user, params, body }) => ({
      ok: true as const,
      webhook: webhookJson(await change(user, params.slug, (id, by) => saveWebhook(rt, id, body.url, by)), rt.config),
    }), {
      owner: true, params: SlugParams, body: WebhookPut, transform: refuseUnknownFields(WebhookPut),
      response: { 200: WebhookAnswer, ...Invalid('a url that is not https://, too long, unknown, or whose host is refused (private addresses); or a body that is not a JSON object'), ...ServerErrors() },
      detail: {
        summary: 'Set the webhook', tags: webhookTags,
        description: `Body \`{"url": "https://…"}\`. Answers \`{"ok":true,"webhook":{"url","secret"}}\`. The \`whsec_\` secret (256 random bits) is generated on the first save and kept when only the URL changes. https only; http:// is accepted only with \`network.allow_private_targets = true\`. No user name, password or #fragment in the URL. ${targetRule} ${urlRulesAgain}`,
      },
    })
    .post('/api/v1/me/servers/:slug/webhook/rotate', async ({ user, params }) => ({
      ok: true as const,
      webhook: webhookJson(await change(user, params.slug, (id, by) => rotateWebhookSecret(rt, id, by)), rt.config),
    }), {
      owner: true, params: SlugParams,
      response: { 200: WebhookAnswer, ...ServerErrors('no server with this slug, or no webhook set') },
      detail: { summary: 'Rotate the webhook secret', tags: webhookTags, description: 'Replaces the secret with a new one at once (deliveries from now on are signed with it). 404 when no webhook is set.' },
    })
    .delete('/api/v1/me/servers/:slug/webhook', async ({ user, params }) => {
      await change(user, params.slug, (id, by) => removeChannel(rt, id, 'webhook', by))
      return { ok: true as const }
    }, {
      owner: true, params: SlugParams,
      response: { 200: Ok, ...ServerErrors() },
      detail: { summary: 'Remove the webhook', tags: webhookTags, description: 'Votes from now on are not sent to a webhook. Answers 200 also when none was set.' },
    })
    .get('/api/v1/me/servers/:slug/discord', async ({ user, params }) => {
      const d = await store.channels.discord(await serverOf(user, params.slug))
      if (!d) throw notFound('no Discord webhook is set for this server')
      return { ok: true as const, discord: discordJson(d, rt.config) }
    }, {
      owner: true, params: SlugParams,
      response: { 200: DiscordAnswer, ...ServerErrors('no server with this slug, or no Discord webhook set') },
      detail: { summary: 'The Discord webhook', tags: discordTags, description: 'The Discord webhook URL. 404 when none is set.' },
    })
    .put('/api/v1/me/servers/:slug/discord', async ({ user, params, body }) => ({
      ok: true as const,
      discord: discordJson(await change(user, params.slug, (id, by) => saveDiscord(rt, id, body.url, by)), rt.config),
    }), {
      owner: true, params: SlugParams, body: DiscordPut, transform: refuseUnknownFields(DiscordPut),
      response: { 200: DiscordAnswer, ...Invalid('a url that is not a Discord webhook URL, or a body that is not a JSON object'), ...ServerErrors() },
      detail: {
        summary: 'Set the Discord webhook', tags: discordTags,
        description: `Body \`{"url": "https://discord.com/api/webhooks/<id>/<token>"}\` (the channel's Integrations → Webhooks → Copy Webhook URL). Answers \`{"ok":true,"discord":{"url"}}\`. Every vote, and the Test button, then posts a message (an embed with the player, the server and its votes this month; no mention can ping anyone) as a durable delivery on the channel \`discord\`. The URL must be https on discord.com, ptb.discord.com, canary.discord.com or the same under discordapp.com, with no port, the webhook path (\`/api/webhooks/…\`, or \`/api/v<n>/webhooks/…\`) and no query but \`thread_id\`; no user name, password or #fragment (400 otherwise). With \`network.allow_private_targets = true\` (local and test installs) any http(s) URL is taken. ${targetRule} ${urlRulesAgain}`,
      },
    })
    .delete('/api/v1/me/servers/:slug/discord', async ({ user, params }) => {
      await change(user, params.slug, (id, by) => removeChannel(rt, id, 'discord', by))
      return { ok: true as const }
    }, {
      owner: true, params: SlugParams,
      response: { 200: Ok, ...ServerErrors() },
      detail: { summary: 'Remove the Discord webhook', tags: discordTags, description: 'Votes from now on are not posted to Discord. Answers 200 also when none was set.' },
    })
    .get('/api/v1/me/servers/:slug/votifier', async ({ user, params }) => {
      const v = await store.channels.votifier(await serverOf(user, params.slug))
      if (!v) throw notFound('no Votifier target is set for this server')
      return { ok: true as const, votifier: votifierJson(v, rt.config) }
    }, {
      owner: true, params: SlugParams,
      response: { 200: VotifierAnswer, ...ServerErrors('no server with this slug, or no Votifier target set') },
      detail: { summary: 'The Votifier target', tags: votifierTags, description: 'As answered by PUT. 404 when none is set.' },
    })
    .put('/api/v1/me/servers/:slug/votifier', async ({ user, params, body }) => ({
      ok: true as const,
      votifier: votifierJson(await change(user, params.slug, (id, by) => saveVotifier(rt, id, body, by)), rt.config),
    }), {
      owner: true, params: SlugParams, body: VotifierPut, transform: refuseUnknownFields(VotifierPut),
      response: { 200: VotifierAnswer, ...Invalid(), ...ServerErrors() },
      detail: {
        summary: 'Set the Votifier target', tags: votifierTags,
        description: `Body \`{"host", "port"? (default 8192), "protocol": "v1"|"v2", …}\`. v1: \`publicKey\`, the listener's rsa/public.key (base64 X.509, or PEM); only 2048-bit RSA keys (400 for any other size or for garbage). v2: \`token\` to paste your listener's token, or nothing to let the site generate one (kept on later saves; \`"newToken": true\` makes a fresh one). Answers \`{"ok":true,"votifier":{"host","port","protocol","publicKey"} }\` for v1 or \`{…,"token","configLine"}\` for v2, where \`configLine\` is the exact \`<service_name>: <token>\` line to paste under \`tokens:\` in the listener's config. ${targetRule}`,
      },
    })
    .delete('/api/v1/me/servers/:slug/votifier', async ({ user, params }) => {
      await change(user, params.slug, (id, by) => removeChannel(rt, id, 'votifier', by))
      return { ok: true as const }
    }, {
      owner: true, params: SlugParams,
      response: { 200: Ok, ...ServerErrors() },
      detail: { summary: 'Remove the Votifier target', tags: votifierTags, description: 'Votes from now on are not pushed over Votifier. Answers 200 also when none was set.' },
    })
}
