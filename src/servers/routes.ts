import { Elysia, t } from 'elysia'
import { ownerAuth } from '../accounts/guard.ts'
import { Ok } from '../accounts/schema.ts'
import { votifierJson, webhookJson } from '../channels/service.ts'
import { VotifierJson, WebhookJson } from '../channels/schema.ts'
import { refuseUnknownFields } from '../http/strict-body.ts'
import type { Runtime } from '../runtime.ts'
import { ServerCreate, ServerPatch } from './schema.ts'
import { createServer, deleteServer, ownedServer, updateServer } from './service.ts'
import { liveStatus, LiveStatusJson, OwnerServerJson, ownerServerJson, ranksThisMonth } from './view.ts'

export const SlugParams = t.Object({ slug: t.String({ description: 'the server\'s slug' }) })
const ServerAnswer = t.Object({ ok: t.Literal(true), server: OwnerServerJson })
const OwnerListItem = t.Composite([OwnerServerJson, LiveStatusJson])
const ServerDetail = t.Object({
  ok: t.Literal(true),
  server: t.Composite([OwnerServerJson, LiveStatusJson, t.Object({ webhook: t.Union([WebhookJson, t.Null()]), votifier: t.Union([VotifierJson, t.Null()]) })]),
})
const tags = ['Owner: servers']
const HOST_RULE = 'host: a hostname or an IP address. Numeric IPv4 forms (2130706433, 0x7f000001, 127.1, 0177.0.0.1) are read as browsers and getaddrinfo read them and saved as the dotted quad; an invalid one (1.2.3.4.5, a name ending in a number) is 400. Unless `network.allow_private_targets = true`, a loopback, private, link-local, CGNAT, multicast, unspecified or reserved target is 400 with the reason ("host 127.1 is the loopback address 127.0.0.1: …"): an IP literal or numeric form, localhost, or a name that resolves to such an address. A name that does not resolve when saved (or not within `stats.ping_timeout_seconds`) is accepted: the server shows offline ("could not be resolved") until it does, and every ping checks the address again.'

// A server owner's servers (an admin may manage any of them by slug), and the admin's list of all.
export function serverRoutes(rt: Runtime) {
  const detail = (slug: string, user: { id: string; isAdmin: boolean }) => {
    const s = ownedServer(rt.servers, user, slug)
    const webhook = rt.channels.webhook(s.id)
    const votifier = rt.channels.votifier(s.id)
    return {
      ok: true as const,
      server: {
        ...ownerServerJson(rt, s),
        ...liveStatus(rt, s),
        webhook: webhook && webhookJson(webhook),
        votifier: votifier && votifierJson(votifier, rt.config),
      },
    }
  }

  return new Elysia({ name: 'servers.routes' })
    .use(ownerAuth(rt))
    .get('/api/v1/me/servers', ({ user }) => ({
      ok: true as const,
      servers: rt.servers.byOwner(user.id).map((s) => ({ ...ownerServerJson(rt, s), ...liveStatus(rt, s) })),
    }), {
      owner: true,
      response: { 200: t.Object({ ok: t.Literal(true), servers: t.Array(OwnerListItem) }) },
      detail: { summary: 'My servers', tags, description: 'The servers of the logged-in account, oldest first, with this month\'s rank and votes and the last ping (`online`, `players`, `lastPingAt`, `pingError`; null before the first ping). (Administrators list every server at /api/v1/admin/servers.)' },
    })
    .post('/api/v1/me/servers', async ({ user, body, set }) => {
      const s = await createServer(rt, user.id, body)
      set.status = 201
      return { ok: true as const, server: ownerServerJson(rt, s) }
    }, {
      owner: true, body: ServerCreate, transform: refuseUnknownFields(ServerCreate),
      response: { 201: ServerAnswer },
      detail: {
        summary: 'List a new server', tags,
        description: 'Takes `{name, host, port?, edition?, slug?, modes?, version?, description?, website?}`. Without `slug`, one is made from the name (URL-safe, unique; `-2`, `-3`… on a clash). The slug never changes afterwards. 409 when a given slug is taken; 400 naming the field for any invalid value (port 1–65535; edition java|bedrock; modes from the site\'s list; website http(s)). ' + HOST_RULE,
      },
    })
    .get('/api/v1/me/servers/:slug', ({ user, params }) => detail(params.slug, user), {
      owner: true, params: SlugParams,
      response: { 200: ServerDetail },
      detail: { summary: 'One of my servers', tags, description: 'The server with its notification settings: `webhook` `{url, secret}` (the secret is revealed here to the owner) and `votifier` `{host, port, protocol, publicKey | token + configLine}`, each null when not set. 403 for another account\'s server, 404 for an unknown slug.' },
    })
    .patch('/api/v1/me/servers/:slug', async ({ user, params, body }) => {
      const s = await updateServer(rt, ownedServer(rt.servers, user, params.slug), body, user)
      // The verification API caches each key's server (name, edition): show the change at once.
      rt.keyCache.forgetServer(s.id)
      return { ok: true as const, server: ownerServerJson(rt, s) }
    }, {
      owner: true, params: SlugParams, body: ServerPatch,
      transform: refuseUnknownFields(ServerPatch, { slug: 'slug cannot be changed: it stays what it was when the server was created' }),
      response: { 200: ServerAnswer },
      detail: { summary: 'Change one of my servers', tags, description: 'Any of `name, host, port (null: default), edition, modes, version, description, website`; fields left out keep their value. `hidden` (true|false) is for administrators only (403 otherwise). The slug cannot change. ' + HOST_RULE },
    })
    .delete('/api/v1/me/servers/:slug', ({ user, params }) => {
      const s = ownedServer(rt.servers, user, params.slug)
      deleteServer(rt, s)
      // Its keys went with it: refused from the next request on, not after the cache's recheck.
      rt.keyCache.forgetServer(s.id)
      return { ok: true as const }
    }, {
      owner: true, params: SlugParams,
      response: { 200: Ok },
      detail: { summary: 'Delete one of my servers', tags, description: 'Deletes the server and everything attached to it: votes, API keys, webhook and Votifier settings, deliveries and statistics. Cannot be undone. Administrators may delete any server.' },
    })
    .get('/api/v1/admin/servers', () => {
      const ranks = ranksThisMonth(rt)
      const owners = new Map(rt.users.list().map((u) => [u.id, u.email]))
      return {
        ok: true as const,
        servers: rt.servers.all().map((s) => ({
          ...ownerServerJson(rt, s, ranks.get(s.id) ?? null), ...liveStatus(rt, s), owner: { id: s.ownerId, email: owners.get(s.ownerId)! },
        })),
      }
    }, {
      admin: true,
      response: { 200: t.Object({ ok: t.Literal(true), servers: t.Array(t.Composite([OwnerListItem, t.Object({ owner: t.Object({ id: t.String(), email: t.String() }) })])) }) },
      detail: { summary: 'Every server (admin)', tags: ['Admin'], description: 'All servers of the site, hidden ones included, oldest first, with their owner. Administrators hide, show or delete any server through PATCH/DELETE /api/v1/me/servers/{slug}. 403 for non-administrators.' },
    })
}
