import { then, type Awaitable } from '../db/store.ts'
import { ApiError } from './errors.ts'

// An exact sliding-window limiter: per key, a ring of the times of the allowed requests still
// inside the window (at most `limit`). A request is allowed when fewer than `limit` fall inside
// the last window, so no window of that length — aligned or not — ever holds more than `limit`
// (a fixed-window or token-bucket counter lets 2× through across a window edge). O(1) per request
// (amortised), 8 bytes per request in the window of an active key; idle keys are swept.

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  resetSeconds: number // until the oldest counted request leaves the window
  retryAfterSeconds: number // 0 when allowed
}

// A limit as the routes use it: the in-memory limiter below answers plain values; the one that
// several instances share (src/cluster/limiter.ts) answers promises.
export interface RateLimiter {
  readonly limit: number
  hit(key: string, now: number): Awaitable<RateDecision>
  // The decision hit() would make, without counting anything.
  peek(key: string, now: number): Awaitable<RateDecision>
}

interface Ring {
  times: Float64Array // capacity: grows by doubling up to `limit`
  head: number // logical index 0 (the oldest entry)
  size: number
}

// Most keys (a voter's address, a visitor's) make one or two requests a window: a ring starts
// small instead of allocating `limit` slots for each of them.
const FIRST_CAPACITY = 4

function grow(ring: Ring, limit: number) {
  const cap = ring.times.length
  const times = new Float64Array(Math.min(limit, cap * 2))
  for (let i = 0; i < ring.size; i++) times[i] = ring.times[(ring.head + i) % cap]
  ring.times = times
  ring.head = 0
}

export class SlidingWindowLimiter implements RateLimiter {
  private rings = new Map<string, Ring>()

  constructor(readonly limit: number, readonly windowMs = 60_000) {}

  // The decision hit() would make, without counting anything (e.g. "is this account locked?"
  // before spending a password hash on it).
  peek(key: string, now: number): RateDecision {
    return this.hit(key, now, false)
  }

  hit(key: string, now: number, count = true): RateDecision {
    let ring = this.rings.get(key)
    if (!ring) {
      ring = { times: new Float64Array(Math.min(this.limit, FIRST_CAPACITY)), head: 0, size: 0 }
      if (count) this.rings.set(key, ring)
    }
    // Entries are in time order: the ones that left the window go first, so the ring holds
    // exactly the requests inside it (and a key whose limit is high keeps only those in memory).
    const cutoff = now - this.windowMs
    const times = ring.times
    while (ring.size > 0 && times[ring.head] <= cutoff) {
      ring.head = (ring.head + 1) % times.length
      ring.size--
    }
    const allowed = ring.size < this.limit
    if (allowed && count) {
      if (ring.size === ring.times.length) grow(ring, this.limit)
      ring.times[(ring.head + ring.size) % ring.times.length] = now
      ring.size++
    }
    const inWindow = ring.size
    const oldest = inWindow > 0 ? ring.times[ring.head] : now
    const reset = Math.max(0, Math.ceil((oldest + this.windowMs - now) / 1000))
    return { allowed, limit: this.limit, remaining: this.limit - inWindow, resetSeconds: reset, retryAfterSeconds: allowed ? 0 : Math.max(1, reset) }
  }

  // Forgets keys with nothing inside the window; returns how many remain.
  sweep(now: number): number {
    for (const [key, ring] of this.rings) {
      const newest = ring.times[(ring.head + ring.size - 1) % ring.times.length]
      if (newest <= now - this.windowMs) this.rings.delete(key)
    }
    return this.rings.size
  }
}

export const rateLimitHeaders = (d: RateDecision): Record<string, string> => ({
  'RateLimit-Limit': String(d.limit),
  'RateLimit-Remaining': String(d.remaining),
  'RateLimit-Reset': String(d.resetSeconds),
})

// The same headers on `base` (a Headers the caller prepared once), for the Response about to be
// made from them: building the headers from an object costs three times what setting two values
// on a prepared list does, on every request of the check endpoint. The copy of `base` with
// RateLimit-Limit, one per limit, is kept and its two other values set in place: a Response copies
// the headers it is given when it is made (test/http/rate-limit.test.ts holds Bun to that), so the
// next request's values never reach an answer already made. Pass the result straight to `new
// Response`; it is not a copy to keep.
const withLimit = new WeakMap<Headers, Map<number, Headers>>()
export function withRateLimitHeaders(base: Headers, d: RateDecision): Headers {
  let byLimit = withLimit.get(base)
  if (!byLimit) withLimit.set(base, (byLimit = new Map()))
  let headers = byLimit.get(d.limit)
  if (!headers) {
    headers = new Headers(base)
    headers.set('RateLimit-Limit', String(d.limit))
    byLimit.set(d.limit, headers)
  }
  headers.set('RateLimit-Remaining', String(d.remaining))
  headers.set('RateLimit-Reset', String(d.resetSeconds))
  return headers
}

// Throws 429 RATE_LIMITED, with the RateLimit headers and Retry-After, when the decision refuses.
export function refuseIfLimited(d: RateDecision): RateDecision {
  if (!d.allowed) {
    throw new ApiError(429, 'RATE_LIMITED', `rate limit of ${d.limit} requests a minute exceeded; retry in ${d.retryAfterSeconds} s`, {},
      { ...rateLimitHeaders(d), 'Retry-After': String(d.retryAfterSeconds) })
  }
  return d
}

const headersOrRefusal = (d: RateDecision): Record<string, string> => rateLimitHeaders(refuseIfLimited(d))

// Counts one request for `key`: returns the RateLimit headers to send, or throws 429
// RATE_LIMITED with them and Retry-After. Synchronous with an in-memory limiter.
export function enforceRateLimit(limiter: RateLimiter, key: string, now: number): Awaitable<Record<string, string>> {
  return then(limiter.hit(key, now), headersOrRefusal)
}
