import { Elysia } from 'elysia'
import type { Runtime } from '../runtime.ts'
import { clientKey } from './client-ip.ts'
import { enforceRateLimit } from './rate-limit.ts'

// `publicLimited: true` on a route: limits.public_per_minute per client address (see clientKey).
// Every answer carries the RateLimit-* headers; over the limit it is 429 RATE_LIMITED. It runs as a
// transform, before the query and body are validated, so that every request counts, a refused
// one (400) too, and carries the headers.
export const publicRateLimit = (rt: Pick<Runtime, 'config' | 'clock' | 'limits'>) =>
  new Elysia({ name: 'http.public-limit' }).macro({
    publicLimited: {
      transform({ request, server, set }) {
        const key = clientKey(request, server, rt.config.http.trust_proxy)
        Object.assign(set.headers, enforceRateLimit(rt.limits.public, key, rt.clock.now()))
      },
    },
  })
