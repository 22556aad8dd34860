import { Elysia, t } from 'elysia'
import { ownerAuth } from '../accounts/guard.ts'
import { Ok } from '../accounts/schema.ts'
import { refuseUnknownFields } from '../http/strict-body.ts'
import { Iso, iso, isoOrNull } from '../http/schema.ts'
import type { Runtime } from '../runtime.ts'
import { SlugParams } from '../servers/routes.ts'
import { ownedServer } from '../servers/service.ts'
import type { ApiKey } from './repo.ts'
import { createKey, revokeKey } from './service.ts'

const KeyCreate = t.Object({
  name: t.Optional(t.String({ maxLength: 64, error: 'name must be at most 64 characters long', examples: ['plugin on lobby-1'] })),
})
const KeyJson = t.Object({
  id: t.String(),
  prefix: t.String({ description: 'the first 8 characters of the key, e.g. vlk_abcd' }),
  name: t.String(),
  createdAt: Iso,
  lastUsedAt: t.Union([Iso, t.Null()]),
})
const keyJson = (k: ApiKey) => ({ id: k.id, prefix: k.prefix, name: k.name, createdAt: iso(k.createdAt), lastUsedAt: isoOrNull(k.lastUsedAt) })
const tags = ['Owner: API keys']

// API keys of a server for the verification API: several per server, each shown once.
export function keyRoutes(rt: Runtime) {
  return new Elysia({ name: 'keys.routes' })
    .use(ownerAuth(rt))
    .get('/api/v1/me/servers/:slug/keys', ({ user, params }) => ({
      ok: true as const,
      keys: rt.keys.byServer(ownedServer(rt.servers, user, params.slug).id).map(keyJson),
    }), {
      owner: true, params: SlugParams,
      response: { 200: t.Object({ ok: t.Literal(true), keys: t.Array(KeyJson) }) },
      detail: { summary: 'API keys of a server', tags, description: 'The active keys, oldest first, by their prefix (the key itself is never shown again), with creation and last-use times.' },
    })
    .post('/api/v1/me/servers/:slug/keys', ({ user, params, body, set }) => {
      const created = createKey(rt.keys, rt.clock, ownedServer(rt.servers, user, params.slug).id, body?.name)
      set.status = 201
      return { ok: true as const, ...created }
    }, {
      owner: true, params: SlugParams, body: t.Optional(KeyCreate), transform: refuseUnknownFields(KeyCreate),
      response: { 201: t.Object({ ok: t.Literal(true), key: t.String({ description: 'vlk_… — shown this once only' }), id: t.String(), prefix: t.String() }) },
      detail: { summary: 'Create an API key', tags, description: 'Answers `201 {"ok":true,"key":"vlk_…","id":"…","prefix":"vlk_abcd"}`. The key (192 random bits) is shown in this answer only; the site keeps its SHA-256. Optional body `{"name": "…"}` (at most 64 characters) to tell keys apart.' },
    })
    .delete('/api/v1/me/servers/:slug/keys/:id', ({ user, params }) => {
      revokeKey(rt.keys, rt.clock, ownedServer(rt.servers, user, params.slug).id, params.id)
      // The verification API caches live keys: drop it so it is refused from the next request on.
      rt.keyCache.forgetKey(params.id)
      return { ok: true as const }
    }, {
      owner: true, params: t.Object({ slug: t.String(), id: t.String() }),
      response: { 200: Ok },
      detail: { summary: 'Revoke an API key', tags, description: 'The key stops working at once. 404 for an id that is not an active key of this server.' },
    })
}
