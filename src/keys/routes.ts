import { Elysia, t } from 'elysia'
import { ownerAuth } from '../accounts/guard.ts'
import { Invalid, Ok, ServerErrors } from '../accounts/schema.ts'
import type { SessionDeps } from '../accounts/session.ts'
import { refuseUnknownFields } from '../http/strict-body.ts'
import { SlugParams } from '../servers/schema.ts'
import { ownedServer, ownedServerBy } from '../servers/service.ts'
import type { ServersRepo } from '../servers/repo.ts'
import type { KeyCache } from './cache.ts'
import type { KeysRepo } from './repo.ts'
import { KeyCreate, KeyCreated, keyJson, KeyList, KeyParams } from './schema.ts'
import { createKey, revokeKey, type KeyDeps } from './service.ts'

export type KeyRoutesDeps = SessionDeps & KeyDeps & {
  store: { keys: KeysRepo; servers: ServersRepo }
  keyCache: KeyCache
  config: { limits: { keyed_per_minute: number } }
}

const tags = ['Owner: API keys']

// API keys of a server for the verification API: several per server, each shown once.
export function keyRoutes(deps: KeyRoutesDeps) {
  const { store } = deps
  const serverOf = async (user: { id: string; isAdmin: boolean }, slug: string) => (await ownedServer(store.servers, user, slug)).id
  return new Elysia({ name: 'keys.routes' })
    .use(ownerAuth(deps))
    .get('/api/v1/me/servers/:slug/keys', async ({ user, params }) => ({
      ok: true as const,
      keys: (await store.keys.byServer(await serverOf(user, params.slug))).map(keyJson),
      perMinute: deps.config.limits.keyed_per_minute,
    }), {
      owner: true, params: SlugParams,
      response: { 200: KeyList, ...ServerErrors() },
      detail: { summary: 'API keys of a server', tags, description: 'The active keys, oldest first, by their prefix (the key itself is never shown again), with creation and last-use times, and `perMinute`, the requests a minute each key may make (the site\'s `limits.keyed_per_minute`).' },
    })
    .post('/api/v1/me/servers/:slug/keys', async ({ user, params, body, set }) => {
      const by = await ownedServerBy(store.servers, user, params.slug)
      const created = await createKey(deps, by.server.id, body?.name, by)
      set.status = 201
      return { ok: true as const, ...created }
    }, {
      owner: true, params: SlugParams, body: t.Optional(KeyCreate), transform: refuseUnknownFields(KeyCreate),
      response: { 201: KeyCreated, ...Invalid('a name over 64 characters, an unknown field, or a body that is not a JSON object'), ...ServerErrors() },
      detail: { summary: 'Create an API key', tags, description: 'Answers `201 {"ok":true,"key":"vlk_…","id":"…","prefix":"vlk_abcd"}`. The key (192 random bits) is shown in this answer only; the site keeps its SHA-256. Optional body `{"name": "…"}` (at most 64 characters) to tell keys apart.' },
    })
    .delete('/api/v1/me/servers/:slug/keys/:id', async ({ user, params }) => {
      const by = await ownedServerBy(store.servers, user, params.slug)
      await revokeKey(deps, by.server.id, params.id, by)
      // The verification API caches live keys: drop it so it is refused from the next request on.
      deps.keyCache.forgetKey(params.id)
      return { ok: true as const }
    }, {
      owner: true, params: KeyParams,
      response: { 200: Ok, ...ServerErrors('no server with this slug, or no active key with this id on it') },
      detail: { summary: 'Revoke an API key', tags, description: 'The key stops working at once. 404 for an id that is not an active key of this server.' },
    })
}
