import { Elysia } from 'elysia'
import type { Clock } from '../clock.ts'
import { then } from '../db/store.ts'
import { ApiError, invalidParameter } from '../http/errors.ts'
import { conflictingParameter, givenTwice } from '../http/query-params.ts'
import { enforceRateLimit, type RateLimiter } from '../http/rate-limit.ts'
import type { KeyCache } from './cache.ts'
import type { LiveKey } from './repo.ts'

export interface KeyedDeps {
  clock: Clock
  keyCache: KeyCache
  limits: { keyed: RateLimiter }
}

interface Keyed {
  apiKey: LiveKey
}

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="votelist API"' }
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i
const SEVERAL_KEYS = 'key: the API key is given in several places (key, X-Api-Key, Authorization) with different values; give it once'

// A header sent several times reads as its values joined by ", " (Headers#get). A key holds no
// comma, so each part is a key presented once more, and the parts must agree as the placements
// do; without a comma (the usual request) the value is read whole. `read`: the key a part holds.
function headerKey(value: string | null, read: (part: string) => string | null): string | null {
  if (!value) return null
  if (!value.includes(',')) return read(value)
  const keys = value.split(',').map((part) => read(part.trim())).filter((key): key is string => !!key)
  if (keys.some((key) => key !== keys[0])) throw invalidParameter(SEVERAL_KEYS)
  return keys[0] ?? null
}

const asIs = (part: string): string => part
const bearer = (part: string): string | null => BEARER.exec(part)?.[1] ?? null

// The key a request presents: query `key`, header `X-Api-Key` or `Authorization: Bearer`.
// Empty values count as absent; an Authorization header of another scheme is ignored (it may
// belong to a proxy in front). Several placements must carry the same key.
export function presentedKey(request: Request, queryKey: string | undefined): string | null {
  const header = headerKey(request.headers.get('x-api-key'), asIs)
  const auth = headerKey(request.headers.get('authorization'), bearer)
  const key = queryKey || header || auth
  if ((header !== null && header !== key) || (auth !== null && auth !== key)) {
    throw invalidParameter(SEVERAL_KEYS)
  }
  return key
}

// `keyed: true` on a route: the API key is required and resolved to `apiKey` (the key id and
// its server; not `server`, which Elysia reserves), and limits.keyed_per_minute applies per key
// with RateLimit-* headers on every answer (429 RATE_LIMITED with Retry-After past it).
// It runs as a transform, before the query is validated: an unauthenticated request gets 401
// whatever else is wrong with it, and every keyed request, valid or not, counts.
export const keyedAuth = (deps: KeyedDeps) =>
  new Elysia({ name: 'keys.keyed-auth' }).macro({
    keyed: {
      transform(c) {
        const conflicting = conflictingParameter(c.request.url)
        if (conflicting === 'key') throw invalidParameter(SEVERAL_KEYS)
        const secret = presentedKey(c.request, (c.query as { key?: string }).key)
        if (secret === null) {
          throw new ApiError(401, 'MISSING_KEY', 'an API key is required: query parameter key, header X-Api-Key or Authorization: Bearer <key>', {}, CHALLENGE)
        }
        const now = deps.clock.now()
        // Synchronous while the key cache answers from memory, as it does for a polling plugin.
        return then(deps.keyCache.resolve(secret, now), (apiKey) => {
          if (!apiKey) throw new ApiError(401, 'INVALID_KEY', 'the API key is unknown or revoked', {}, CHALLENGE)
          return then(enforceRateLimit(deps.limits.keyed, apiKey.id, now), (headers) => {
            Object.assign(c.set.headers, headers)
            // After the key, so that a request without a valid one is 401 whatever its parameters.
            if (conflicting !== null) throw givenTwice(conflicting)
            ;(c as unknown as Keyed).apiKey = apiKey
          })
        })
      },
      // The transform above already put apiKey on the context; this only gives it its type.
      resolve: (c) => ({ apiKey: (c as unknown as Keyed).apiKey }),
      detail: { security: [{ ApiKeyHeader: [] }, { BearerKey: [] }, { ApiKeyQuery: [] }] },
    },
  })
