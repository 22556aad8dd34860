import { Elysia } from 'elysia'
import { AdminErrors, Invalid, Ok, ServerErrors, SessionErrors } from '../accounts/schema.ts'
import { errorAnswer } from '../http/schema.ts'
import { ownerAuth } from '../accounts/guard.ts'
import type { SessionDeps } from '../accounts/session.ts'
import { refuseUnknownFields } from '../http/strict-body.ts'
import type { Scheduler } from '../jobs/scheduler.ts'
import type { AddressRival, Server } from './repo.ts'
import { AdminList, OwnerList, ServerAnswer, ServerCreate, ServerPatch, SlugParams } from './schema.ts'
import { createServer, deleteServer, ownedServer, updateServer, type ServersDeps } from './service.ts'
import { liveStatus, ownerServerJson, ranksThisMonth, type ViewDeps } from './view.ts'

export type ServerRoutesDeps = ServersDeps & ViewDeps & SessionDeps & {
  // The API keys' cache holds each key's server (name, edition): it forgets a changed server.
  keyCache: { forgetServer(serverId: string): void }
  // Starts the purge of a deleted server's rows at once (src/servers/purge.ts).
  scheduler: Pick<Scheduler, 'wake'>
}

const tags = ['Owner: servers']
const HOST_RULE = 'host: a hostname or an IP address. Numeric IPv4 forms (2130706433, 0x7f000001, 127.1, 0177.0.0.1) are read as browsers and getaddrinfo read them and saved as the dotted quad; an invalid one (1.2.3.4.5, a name ending in a number) is 400. Unless `network.allow_private_targets = true`, a loopback, private, link-local, CGNAT, multicast, unspecified or reserved target is 400 with the reason ("host 127.1 is the loopback address 127.0.0.1: …"): an IP literal or numeric form, localhost, or a name that resolves to such an address. A name that does not resolve when saved (or not within `stats.ping_timeout_seconds`) is accepted: the server shows offline ("could not be resolved") until it does, and every ping checks the address again.'

// A server owner's servers (an admin may manage any of them by slug), and the admin's list of
// all. The one server with its notification settings is answered by the channels' routes.
export function serverRoutes(deps: ServerRoutesDeps) {
  const listItem = async (s: Server, rank?: number | null) =>
    ({ ...(await ownerServerJson(deps, s, rank)), ...(await liveStatus(deps, s)) })

  return new Elysia({ name: 'servers.routes' })
    .use(ownerAuth(deps))
    .get('/api/v1/me/servers', async ({ user }) => ({
      ok: true as const,
      servers: await Promise.all((await deps.store.servers.byOwner(user.id)).map((s) => listItem(s))),
    }), {
      owner: true,
      response: { 200: OwnerList, ...SessionErrors },
      detail: { summary: 'My servers', tags, description: 'The servers of the logged-in account, oldest first, with this month\'s rank and votes and the last ping (`online`, `players`, `lastPingAt`, `pingError`; null before the first ping). (Administrators list every server at /api/v1/admin/servers.)' },
    })
    .post('/api/v1/me/servers', async ({ user, body, set }) => {
      const s = await createServer(deps, user.id, body)
      set.status = 201
      return { ok: true as const, server: await ownerServerJson(deps, s) }
    }, {
      owner: true, body: ServerCreate, transform: refuseUnknownFields(ServerCreate),
      response: { 201: ServerAnswer, ...Invalid(), ...SessionErrors, 409: errorAnswer('CONFLICT: the slug is taken (`field`: "slug").') },
      detail: {
        summary: 'List a new server', tags,
        description: 'Takes `{name, host, port?, edition?, slug?, modes?, version?, description?, website?}`. Without `slug`, one is made from the name (URL-safe, unique; `-2`, `-3`… on a clash). The slug never changes afterwards. 409 when a given slug is taken; 400 naming the field for any invalid value (port 1–65535; edition java|bedrock; modes from the site\'s list; website http(s)). ' + HOST_RULE,
      },
    })
    .patch('/api/v1/me/servers/:slug', async ({ user, params, body }) => {
      const s = await updateServer(deps, await ownedServer(deps.store.servers, user, params.slug), body, user)
      // The verification API caches each key's server (name, edition): show the change at once.
      deps.keyCache.forgetServer(s.id)
      return { ok: true as const, server: await ownerServerJson(deps, s) }
    }, {
      owner: true, params: SlugParams, body: ServerPatch,
      transform: refuseUnknownFields(ServerPatch, { slug: 'slug cannot be changed: it stays what it was when the server was created' }),
      response: { 200: ServerAnswer, ...Invalid(), ...ServerErrors('no server with this slug; 403 also for `hidden` from an account that is not an administrator') },
      detail: { summary: 'Change one of my servers', tags, description: 'Any of `name, host, port (null: default), edition, modes, version, description, website`; fields left out keep their value. `hidden` (true|false) is for administrators only (403 otherwise). The slug cannot change. ' + HOST_RULE },
    })
    .delete('/api/v1/me/servers/:slug', async ({ user, params }) => {
      const s = await ownedServer(deps.store.servers, user, params.slug)
      await deleteServer(deps, s, user)
      // Its keys went with it: refused from the next request on, not after the cache's recheck.
      deps.keyCache.forgetServer(s.id)
      return { ok: true as const }
    }, {
      owner: true, params: SlugParams,
      response: { 200: Ok, ...ServerErrors() },
      detail: { summary: 'Delete one of my servers', tags, description: 'Deletes the server and everything attached to it: votes, API keys, webhook and Votifier settings, deliveries and statistics. Cannot be undone. The server leaves every list and page at once, its API keys are refused and its slug is free; its votes, deliveries and statistics are removed in the background within minutes. Administrators may delete any server.' },
    })
    .get('/api/v1/admin/servers', async () => {
      const ranks = await ranksThisMonth(deps)
      const owners = new Map((await deps.store.users.list()).map((u) => [u.id, u.email]))
      const owner = (id: string) => ({ id, email: owners.get(id)! })
      const conflicts = new Map<string, AddressRival[]>()
      for (const r of await deps.store.servers.addressRivals()) conflicts.set(r.serverId, [...(conflicts.get(r.serverId) ?? []), r])
      return {
        ok: true as const,
        servers: await Promise.all((await deps.store.servers.all()).map(async (s) => ({
          ...(await listItem(s, ranks.get(s.id) ?? null)), owner: owner(s.ownerId),
          conflicts: (conflicts.get(s.id) ?? []).map(({ rival: r }) => ({ slug: r.slug, name: r.name, owner: owner(r.ownerId), verified: r.verified })),
        }))),
      }
    }, {
      admin: true,
      response: { 200: AdminList, ...AdminErrors },
      detail: { summary: 'Every server (admin)', tags: ['Admin'], description: 'All servers of the site, hidden ones included, oldest first, with their owner. `conflicts`: the listings of other accounts that claim the same address (host in lower case without a final dot, and the port or the edition\'s default), with whether each is verified; a verified listing keeps the address and the other accounts\' unverified ones are off the public site (`unlistedReason: "claimed"`). Administrators hide, show or delete any server through PATCH/DELETE /api/v1/me/servers/{slug}. 403 for non-administrators.' },
    })
}
