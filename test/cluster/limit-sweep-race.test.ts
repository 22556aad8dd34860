import { SQL } from 'bun'
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { SharedWindowLimiter } from '../../src/cluster/limiter.ts'
import { backends, closeTestSites } from '../backends.ts'
import { lockWaits } from '../held-write.ts'
import { cleanupTemp, siteOn } from '../helpers.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)
afterEach(closeTestSites)

// The once-a-minute sweep deletes a key's counter once all its requests have left the window. A
// request of that key counted at the same moment must be counted all the same: in a counter the
// sweep did not delete, or in a new one.
describe.if(backends.includes('postgres'))('a request counted while the sweep deletes its key\'s counter [postgres]', () => {
  test('it is counted in a new counter, and the next request over the limit is refused', async () => {
    const rt = await siteOn('postgres')
    const limiter = new SharedWindowLimiter(rt.store.cluster!, 'sweep-race', 1)
    const start = rt.clock.now()
    expect((await limiter.hit('k', start)).allowed).toBe(true)
    rt.clock.advance(61_000)
    const now = rt.clock.now()

    // The sweep, in a transaction of its own, has locked the expired counter and not deleted it
    // yet: the request's statement finds the row there, then waits for its lock.
    const sweeper = new SQL({ url: rt.config.database.url, max: 1 })
    try {
      const sweep = await sweeper.reserve()
      await sweep.unsafe('BEGIN')
      await sweep.unsafe('SELECT 1 FROM rate_limit WHERE name = $1 AND key = $2 FOR UPDATE', ['sweep-race', 'k'])
      const hit = limiter.hit('k', now)
      await until(async () => (await lockWaits(rt)) >= 1, 'the request to wait for the counter\'s lock')
      const swept = await sweep.unsafe('DELETE FROM rate_limit WHERE expires_at <= $1', [now])
      expect(swept.affectedRows).toBe(1)
      await sweep.unsafe('COMMIT')
      sweep.release()
      expect(await hit).toMatchObject({ allowed: true, remaining: 0 })
    } finally {
      await sweeper.close()
    }

    expect(await rt.rows('SELECT name, key, counts, lasts, expires_at AS "expiresAt" FROM rate_limit'))
      .toEqual([{ name: 'sweep-race', key: 'k', counts: [1], lasts: [String(now)], expiresAt: now + 60_000 }])
    expect(await limiter.hit('k', now + 1000)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 59 })
  })
})
