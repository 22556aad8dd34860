import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { recordVote } from '../../src/votes/service.ts'
import { backends, closeTestSites } from '../backends.ts'
import { deliveryRows, deliveryRuntime } from '../deliveries/setup.ts'
import { cleanupTemp } from '../helpers.ts'
import { stopCluster } from '../postgres/cluster.ts'
import { until } from '../until.ts'

// PostgreSQL away for two seconds exactly while an attempt's outcome is being written: the
// receiver has the vote, the site must record it. Lost, that write left the job leased by this
// live instance until jobs.lease ended, and the vote was sent again then.

let receiver: ReturnType<typeof Bun.serve> | null = null
afterEach(async () => {
  receiver?.stop(true)
  receiver = null
  await closeTestSites()
})
afterAll(cleanupTemp)

describe.if(backends.includes('postgres'))('an attempt\'s outcome written while PostgreSQL is away', () => {
  test('written once the database is back: the delivery succeeds at once, sent once, its job gone', async () => {
    const { rt, server } = await deliveryRuntime('postgres')
    const data = (await rt.row<{ data_directory: string }>('SHOW data_directory'))!.data_directory
    let received = 0
    let back: Promise<void> | null = null
    receiver = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch(req) {
        await req.text()
        if (++received === 1) {
          // Down before the answer leaves, up again two seconds after it.
          const start = await stopCluster(data)
          back = Bun.sleep(2000).then(start)
        }
        return new Response('ok')
      },
    })
    await rt.store.channels.putWebhook(server.id, `http://127.0.0.1:${receiver.port}/hook`, 'whsec_' + 's'.repeat(43), rt.clock.now())
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    try {
      await rt.queue.drain()
      await until(() => back !== null, 'the receiver to have stopped the database')
    } finally {
      // Whatever happened, the database is up again before anything else runs.
      await until(() => back !== null, 'the receiver to have stopped the database').catch(() => {})
      await back
    }
    // The outcome was written after the database came back, by the same attempt.
    await until(async () => (await deliveryRows(rt).catch(() => []))[0]?.status === 'succeeded', 'the delivery to be recorded as succeeded', 25_000)
    await until(async () => (await rt.row<{ n: number }>("SELECT count(*) AS n FROM job WHERE kind = 'delivery'"))!.n === 0, 'its job to be removed', 25_000)
    expect((await rt.rows<{ attempt: number; status: string }>('SELECT attempt, status FROM delivery_attempt')).map((a) => [a.attempt, a.status])).toEqual([[1, 'succeeded']])
    await rt.queue.drain()
    expect(received).toBe(1)
  }, 120_000)
})
