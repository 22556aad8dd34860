import { t } from 'elysia'
import { Iso, iso, isoOrNull } from '../http/schema.ts'
import type { ApiKey } from './repo.ts'

// Bodies and answers of the API key routes.
export const KeyCreate = t.Object({
  name: t.Optional(t.String({ maxLength: 64, error: 'name must be at most 64 characters long', examples: ['plugin on lobby-1'] })),
})

export const KeyJson = t.Object({
  id: t.String(),
  prefix: t.String({ description: 'the first 8 characters of the key, e.g. vlk_abcd' }),
  name: t.String(),
  createdAt: Iso,
  lastUsedAt: t.Union([Iso, t.Null()]),
})
export const keyJson = (k: ApiKey): typeof KeyJson.static => ({ id: k.id, prefix: k.prefix, name: k.name, createdAt: iso(k.createdAt), lastUsedAt: isoOrNull(k.lastUsedAt) })

export const KeyList = t.Object({
  ok: t.Literal(true),
  keys: t.Array(KeyJson),
  perMinute: t.Integer({ description: 'requests a minute each key may make on the verification API (the site\'s limits.keyed_per_minute; 600 by default)' }),
})
export const KeyCreated = t.Object({ ok: t.Literal(true), key: t.String({ description: 'vlk_… — shown this once only' }), id: t.String(), prefix: t.String() })
export const KeyParams = t.Object({ slug: t.String(), id: t.String() })
