import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { createKey } from '../../src/keys/service.ts'
import { backends, closeTestSites } from '../backends.ts'
import { cleanupTemp, seedServer, siteAgain, siteOn } from '../helpers.ts'

afterAll(cleanupTemp)
afterEach(closeTestSites)

describe.if(backends.includes('postgres'))('API keys\' last use, written by several instances on PostgreSQL', () => {
  test('two instances that used the same keys in opposite orders write their last use at the same time, neither refused', async () => {
    const a = await siteOn('postgres')
    const b = await siteAgain(a)
    const { server, key } = await seedServer(a)
    const keys = [key]
    for (let i = 1; i < 12; i++) keys.push((await createKey(a, server.id, `key ${i}`)).key)
    for (let round = 1; round <= 5; round++) {
      const now = a.clock.now() + round * 60_000
      // Each instance's cache holds the keys in the order it first met them.
      for (const k of keys) await a.keyCache.resolve(k, now)
      for (const k of [...keys].reverse()) await b.keyCache.resolve(k, now)
      expect(await Promise.all([a.keyCache.flush(now + 1), b.keyCache.flush(now + 2)])).toEqual([keys.length, keys.length])
    }
    const stored = await a.rows<{ at: number }>('SELECT last_used_at AS at FROM api_key')
    expect(stored.map((r) => Number(r.at))).toEqual(keys.map(() => a.clock.now() + 5 * 60_000))
  })
})
