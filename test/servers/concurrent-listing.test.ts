import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { createUser } from '../../src/accounts/service.ts'
import { ApiError } from '../../src/http/errors.ts'
import { createServer } from '../../src/servers/service.ts'
import { backends, closeTestSites } from '../backends.ts'
import { holdNextWrite, lockWaits } from '../held-write.ts'
import { cleanupTemp, siteOn, testLookup, type BackendRuntime } from '../helpers.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

// On SQLite every write transaction runs alone, so the slug checks of a new listing always see
// the listings made before it. On PostgreSQL two listings at once must not each miss the other's.
describe.if(backends.includes('postgres'))('listings made at once on PostgreSQL', () => {
  afterEach(closeTestSites)

  // The first listing is written and its transaction held open; the second is made meanwhile.
  async function twoAtOnce(rt: BackendRuntime, slug?: string) {
    const owner = await createUser(rt, { email: 'owner@example.com', password: 'correct horse battery' })
    const input = { name: 'Emerald Valley', host: 'play.example.com', ...(slug && { slug }) }
    const held = holdNextWrite(rt)
    const first = createServer({ ...rt, store: held.store, lookup: testLookup }, owner.id, input)
    await until(held.written, 'the first listing to be written')
    let settled = false
    const second = createServer({ ...rt, lookup: testLookup }, owner.id, input).catch((e: unknown) => e).finally(() => { settled = true })
    try {
      await until(async () => settled || (await lockWaits(rt)) === 1, 'the second listing to wait for the first, or to end')
    } finally {
      held.release()
    }
    return { first: await first, second: await second }
  }

  test('two servers of the same name listed at once get the name\'s slug and the next one', async () => {
    const rt = await siteOn('postgres')
    const { first, second } = await twoAtOnce(rt)
    expect(first.slug).toBe('emerald-valley')
    expect(second).toMatchObject({ slug: 'emerald-valley-2' })
  })

  test('of two servers listed at once with the same slug, the second is refused with 409 naming the slug', async () => {
    const rt = await siteOn('postgres')
    const { first, second } = await twoAtOnce(rt, 'emerald')
    expect(first.slug).toBe('emerald')
    expect(second).toBeInstanceOf(ApiError)
    expect(second).toMatchObject({ status: 409, errorCode: 'CONFLICT', field: 'slug' })
    expect((await rt.store.servers.all()).map((s) => s.slug)).toEqual(['emerald'])
  })
})
