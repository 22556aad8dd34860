import { describe, expect, test } from 'bun:test'
import { createKeyCache } from '../../src/keys/cache.ts'
import type { LiveKey } from '../../src/keys/repo.ts'

// On PostgreSQL the key cache's reads are round trips: another instance may revoke the key, and
// tell this one (heard), while this one's read of it is on its way back, answered from a snapshot
// taken before the revoke committed. That answer must not be trusted for the next second.
describe('a key forgotten while it is being read', () => {
  test('the read that started before the revoke is not cached: the next request reads the key again', async () => {
    const live: LiveKey = { id: 'k1', serverId: 's1', slug: 'valley', name: 'Valley', edition: 'java' }
    const reads: ((k: LiveKey | null) => void)[] = []
    const store = {
      keys: { liveByHash: () => new Promise<LiveKey | null>((resolve) => reads.push(resolve)) },
      write: () => { throw new Error('not used') },
    }
    const cache = createKeyCache(store as never)
    const secret = 'vlk_' + 'a'.repeat(32)
    const first = cache.resolve(secret, 1000) // read sent: the database still has the key live
    expect(reads.length).toBe(1)
    cache.heard('key:k1') // the other instance revoked it and says so before the answer arrives
    reads[0](live) // the answer, from before the revoke
    expect(await first).toEqual(live) // this request was already under way: it may pass
    // 10 ms later, well within KEY_RECHECK_MS: must be read again, not answered from memory.
    const second = cache.resolve(secret, 1010)
    expect(reads.length).toBe(2)
    reads[1](null)
    expect(await second).toBeNull()
  })
})
