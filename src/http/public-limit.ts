import { Elysia } from 'elysia'
import type { Runtime } from '../runtime.ts'
import { clientKey, type SocketInfo } from './client-ip.ts'
import { enforceRateLimit, type SlidingWindowLimiter } from './rate-limit.ts'

interface LimitedRequest {
  request: Request
  server: SocketInfo | null
  set: { headers: Record<string, unknown> }
}

// A transform hook counting the request against `limiter` under its client address (see
// clientKey). As a transform it runs before the query and body are validated, so every request
// counts, a refused one (400) too, and every answer carries the RateLimit-* headers; past the
// limit it is 429 RATE_LIMITED.
export const limitByAddress = (rt: Pick<Runtime, 'config' | 'clock'>, limiter: SlidingWindowLimiter) =>
  ({ request, server, set }: LimitedRequest) => {
    Object.assign(set.headers, enforceRateLimit(limiter, clientKey(request, server, rt.config.http.trust_proxy), rt.clock.now()))
  }

// `publicLimited: true` on a route: limits.public_per_minute per client address.
export const publicRateLimit = (rt: Pick<Runtime, 'config' | 'clock' | 'limits'>) =>
  new Elysia({ name: 'http.public-limit' }).macro({
    publicLimited: { transform: limitByAddress(rt, rt.limits.public) },
  })
