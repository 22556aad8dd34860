import { afterAll, describe, expect, test } from 'bun:test'
import { use } from '../../src/db/store.ts'
import { createJobQueue } from '../../src/jobs/queue.ts'
import { cleanupTemp, testRuntime } from '../helpers.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

const jobRows = (rt: ReturnType<typeof testRuntime>) =>
  rt.db.query('SELECT id, kind, run_at AS runAt, attempts, lease_until AS leaseUntil, last_error AS lastError FROM job ORDER BY id').all() as
    { id: number; kind: string; runAt: number; attempts: number; leaseUntil: number | null; lastError: string | null }[]

// A job enqueued outside any script (its own transaction).
const enqueue = (rt: ReturnType<typeof testRuntime>, kind: string, payload: unknown, runAt?: number) =>
  rt.store.jobs.enqueue({ kind, payload, runAt }, rt.clock.now())

describe('durable job queue', () => {
  test('runs due jobs with their payload, oldest first, and deletes them when done', async () => {
    const rt = testRuntime()
    const seen: unknown[] = []
    rt.queue.handle('greet', (job) => { seen.push(job.payload) })
    enqueue(rt, 'greet', { n: 1 })
    enqueue(rt, 'greet', { n: 2 })
    enqueue(rt, 'greet', { n: 3 }, rt.clock.now() + 60_000)
    expect(await rt.queue.drain()).toBe(2)
    expect(seen).toEqual([{ n: 1 }, { n: 2 }])
    expect(jobRows(rt).length).toBe(1)
    rt.clock.advance(60_000)
    expect(await rt.queue.drain()).toBe(1)
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }])
    expect(jobRows(rt)).toEqual([])
  })

  test('a thrown error keeps the job with its error and a backoff; it is never dropped', async () => {
    const rt = testRuntime()
    let calls = 0
    rt.queue.handle('flaky', () => { calls++; if (calls < 3) throw new Error(`boom ${calls}`) })
    enqueue(rt, 'flaky', {})
    await rt.queue.drain()
    let [row] = jobRows(rt)
    expect(row.attempts).toBe(1)
    expect(row.lastError).toBe('boom 1')
    expect(row.leaseUntil).toBeNull()
    expect(row.runAt).toBeGreaterThan(rt.clock.now())
    expect(await rt.queue.drain()).toBe(0) // not due yet
    rt.clock.advance(row.runAt - rt.clock.now())
    await rt.queue.drain()
    ;[row] = jobRows(rt)
    expect(row.attempts).toBe(2)
    rt.clock.advance(row.runAt - rt.clock.now())
    await rt.queue.drain()
    expect(calls).toBe(3)
    expect(jobRows(rt)).toEqual([])
  })

  test('a handler can ask to run again at a given time', async () => {
    const rt = testRuntime()
    const at = rt.clock.now() + 5000
    rt.queue.handle('later', (job) => (job.attempts === 1 ? { retryAt: at, error: 'not yet' } : undefined))
    enqueue(rt, 'later', {})
    await rt.queue.drain()
    expect(jobRows(rt)[0]).toMatchObject({ runAt: at, lastError: 'not yet', attempts: 1 })
    rt.clock.set(at)
    await rt.queue.drain()
    expect(jobRows(rt)).toEqual([])
  })

  test('jobs of kinds nobody handles stay queued', async () => {
    const rt = testRuntime()
    rt.queue.handle('known', () => {})
    enqueue(rt, 'unknown', {})
    expect(await rt.queue.drain()).toBe(0)
    expect(jobRows(rt).map((r) => r.kind)).toEqual(['unknown'])
  })

  test('an enqueue inside a rolled-back script leaves no job (outbox semantics)', async () => {
    const rt = testRuntime()
    await expect(rt.store.write(function* (tx) {
      yield* use(tx.jobs.enqueue({ kind: 'x' }, rt.clock.now()))
      throw new Error('abort')
    })).rejects.toThrow('abort')
    expect(jobRows(rt)).toEqual([])
  })

  test('a leased job is not claimed twice; a lease left by a dead process is released at start', async () => {
    const rt = testRuntime()
    let release!: () => void
    const blocked = new Promise<void>((r) => { release = r })
    let runs = 0
    rt.queue.handle('slow', async () => { runs++; await blocked })
    enqueue(rt, 'slow', {})
    const first = rt.queue.drain()
    await until(() => runs === 1, 'the job to be claimed and running')
    // A second queue on the same database sees the lease and leaves the job alone.
    const other = createJobQueue(rt.store.jobs, rt.clock, rt.log)
    other.handle('slow', () => { runs++ })
    expect(await other.drain()).toBe(0)
    expect(jobRows(rt)[0].leaseUntil).not.toBeNull()
    // The "restart" path: the lease is dropped and the job is due again.
    expect(await other.releaseLeases()).toBe(1)
    expect(await other.drain()).toBe(1)
    release()
    await first
    expect(runs).toBe(2)
  })

  test('bounded concurrency, and jobs enqueued while draining are picked up by the same drain', async () => {
    const rt = testRuntime()
    const q = createJobQueue(rt.store.jobs, rt.clock, rt.log, { concurrency: 3 })
    let active = 0
    let peak = 0
    let spawned = false
    q.handle('work', async () => {
      active++
      peak = Math.max(peak, active)
      await Bun.sleep(2)
      if (!spawned) { spawned = true; await enqueue(rt, 'work', {}) }
      active--
    })
    for (let i = 0; i < 10; i++) await enqueue(rt, 'work', {})
    expect(await q.drain()).toBe(11)
    expect(peak).toBe(3)
    expect((await q.pending()).total).toBe(0)
  })
})
