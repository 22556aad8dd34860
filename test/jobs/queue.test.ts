import { afterAll, describe, expect, test } from 'bun:test'
import { writeTx } from '../../src/db/open.ts'
import { createJobQueue } from '../../src/jobs/queue.ts'
import { cleanupTemp, testRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

const jobRows = (rt: ReturnType<typeof testRuntime>) =>
  rt.db.query('SELECT id, kind, run_at AS runAt, attempts, lease_until AS leaseUntil, last_error AS lastError FROM job ORDER BY id').all() as
    { id: number; kind: string; runAt: number; attempts: number; leaseUntil: number | null; lastError: string | null }[]

describe('durable job queue', () => {
  test('runs due jobs with their payload, oldest first, and deletes them when done', async () => {
    const rt = testRuntime()
    const seen: unknown[] = []
    rt.queue.handle('greet', (job) => { seen.push(job.payload) })
    rt.queue.enqueue('greet', { n: 1 })
    rt.queue.enqueue('greet', { n: 2 })
    rt.queue.enqueue('greet', { n: 3 }, rt.clock.now() + 60_000)
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
    rt.queue.enqueue('flaky', {})
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
    rt.queue.enqueue('later', {})
    await rt.queue.drain()
    expect(jobRows(rt)[0]).toMatchObject({ runAt: at, lastError: 'not yet', attempts: 1 })
    rt.clock.set(at)
    await rt.queue.drain()
    expect(jobRows(rt)).toEqual([])
  })

  test('jobs of kinds nobody handles stay queued', async () => {
    const rt = testRuntime()
    rt.queue.handle('known', () => {})
    rt.queue.enqueue('unknown', {})
    expect(await rt.queue.drain()).toBe(0)
    expect(jobRows(rt).map((r) => r.kind)).toEqual(['unknown'])
  })

  test('an enqueue inside a rolled-back transaction leaves no job (outbox semantics)', () => {
    const rt = testRuntime()
    expect(() => writeTx(rt.db, () => {
      rt.queue.enqueue('x', {})
      throw new Error('abort')
    })).toThrow('abort')
    expect(jobRows(rt)).toEqual([])
  })

  test('a leased job is not claimed twice; a lease left by a dead process is released at start', async () => {
    const rt = testRuntime()
    let release!: () => void
    const blocked = new Promise<void>((r) => { release = r })
    let runs = 0
    rt.queue.handle('slow', async () => { runs++; await blocked })
    rt.queue.enqueue('slow', {})
    const first = rt.queue.drain()
    expect(runs).toBe(1) // claimed and running: drain() claims before its first await
    // A second queue on the same database sees the lease and leaves the job alone.
    const other = createJobQueue(rt.db, rt.clock, rt.log)
    other.handle('slow', () => { runs++ })
    expect(await other.drain()).toBe(0)
    expect(jobRows(rt)[0].leaseUntil).not.toBeNull()
    // The "restart" path: the lease is dropped and the job is due again.
    expect(other.releaseLeases()).toBe(1)
    expect(await other.drain()).toBe(1)
    release()
    await first
    expect(runs).toBe(2)
  })

  test('bounded concurrency, and jobs enqueued while draining are picked up by the same drain', async () => {
    const rt = testRuntime()
    const q = createJobQueue(rt.db, rt.clock, rt.log, { concurrency: 3 })
    let active = 0
    let peak = 0
    let spawned = false
    q.handle('work', async () => {
      active++
      peak = Math.max(peak, active)
      await Bun.sleep(2)
      if (!spawned) { spawned = true; q.enqueue('work', {}) }
      active--
    })
    for (let i = 0; i < 10; i++) q.enqueue('work', {})
    expect(await q.drain()).toBe(11)
    expect(peak).toBe(3)
    expect(q.pending().total).toBe(0)
  })
})
