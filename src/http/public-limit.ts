import { Elysia } from 'elysia'
import type { Runtime } from '../runtime.ts'
import { ipKey } from '../net/ip.ts'
import { clientAddress } from './client-ip.ts'
import { enforceRateLimit } from './rate-limit.ts'

// `publicLimited: true` on a route: limits.public_per_minute per client address (an IPv6 client
// counts per /64, so rotating addresses inside one subscriber prefix does not multiply the quota).
// Every answer carries the RateLimit-* headers; over the limit it is 429 RATE_LIMITED.
export const publicRateLimit = (rt: Pick<Runtime, 'config' | 'clock' | 'limits'>) =>
  new Elysia({ name: 'http.public-limit' }).macro({
    publicLimited: {
      beforeHandle({ request, server, set }) {
        const address = clientAddress(request, server, rt.config.http.trust_proxy)
        const key = (address && ipKey(address)) ?? 'unknown'
        Object.assign(set.headers, enforceRateLimit(rt.limits.public, key, rt.clock.now()))
      },
    },
  })
