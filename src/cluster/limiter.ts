import type { RateDecision, RateLimiter } from '../http/rate-limit.ts'
import type { ClusterRepo } from './repo.ts'

// A limit that holds across every instance of the site: each request is decided and counted by
// the database, in one statement (src/cluster/postgres-repo.ts), whichever instance answers it.
// It counts in buckets of a sixtieth of the window, each until its last request has left: where
// the requests of one bucket were made at different times, it may refuse a request up to a second
// (per minute of window) before the in-memory limiter would, and never lets one through that the
// in-memory limiter would refuse. Requests a second or more apart get the same answers from both.
export class SharedWindowLimiter implements RateLimiter {
  constructor(private readonly cluster: Pick<ClusterRepo, 'hitLimit'>, readonly name: string, readonly limit: number, readonly windowMs = 60_000) {}

  hit(key: string, now: number): Promise<RateDecision> {
    return this.decide(key, now, true)
  }

  peek(key: string, now: number): Promise<RateDecision> {
    return this.decide(key, now, false)
  }

  private async decide(key: string, now: number, count: boolean): Promise<RateDecision> {
    const { allowed, used, freesAt } = await this.cluster.hitLimit({ name: this.name, key, now, limit: this.limit, windowMs: this.windowMs, count })
    const reset = Math.max(0, Math.ceil((freesAt - now) / 1000))
    return {
      allowed, limit: this.limit, remaining: Math.max(0, this.limit - used), resetSeconds: reset,
      retryAfterSeconds: allowed ? 0 : Math.max(1, reset),
    }
  }
}
