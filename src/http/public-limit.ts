import { Elysia } from 'elysia'
import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import { then } from '../db/store.ts'
import { clientKey, type SocketInfo } from './client-ip.ts'
import { conflictingParameter, givenTwice } from './query-params.ts'
import { enforceRateLimit, type RateLimiter } from './rate-limit.ts'

interface LimitedRequest {
  request: Request
  server: SocketInfo | null
  set: { headers: Record<string, unknown> }
}

// A transform hook counting the request against `limiter` under its client address (see
// clientKey). As a transform it runs before the query and body are validated, so every request
// counts, a refused one (400) too, and every answer carries the RateLimit-* headers; past the
// limit it is 429 RATE_LIMITED.
export const limitByAddress = (deps: { config: Config; clock: Clock }, limiter: RateLimiter) =>
  ({ request, server, set }: LimitedRequest) =>
    then(enforceRateLimit(limiter, clientKey(request, server, deps.config.http.trust_proxy), deps.clock.now()), (headers) => {
      Object.assign(set.headers, headers)
    })

export interface PublicLimitDeps {
  config: Config
  clock: Clock
  limits: { public: RateLimiter }
}

// `publicLimited: true` on a route: limits.public_per_minute per client address; past the count,
// a query parameter given several times with different values is 400 naming it (as on the keyed
// API), rather than its last value silently.
export const publicRateLimit = (deps: PublicLimitDeps) => {
  const limit = limitByAddress(deps, deps.limits.public)
  return new Elysia({ name: 'http.public-limit' }).macro({
    publicLimited: {
      // (The context destructured, not handed on whole: see body-limit.ts.)
      transform: ({ request, server, set }: LimitedRequest) => then(limit({ request, server, set }), () => {
        const conflicting = conflictingParameter(request.url)
        if (conflicting !== null) throw givenTwice(conflicting)
      }),
    },
  })
}
