import { afterAll, expect, test } from 'bun:test'
import { use } from '../../src/db/store.ts'
import { createJobQueue } from '../../src/jobs/queue.ts'
import { openStore } from '../../src/runtime.ts'
import { describeBackends } from '../backends.ts'
import { cleanupTemp, siteOn, type BackendRuntime } from '../helpers.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

const jobRows = (rt: BackendRuntime) =>
  rt.rows<{ id: number; kind: string; runAt: number; attempts: number; leaseUntil: number | null; lastError: string | null }>(
    'SELECT id, kind, run_at AS "runAt", attempts, lease_until AS "leaseUntil", last_error AS "lastError" FROM job ORDER BY id')

// A job enqueued outside any script (its own transaction).
const enqueue = (rt: BackendRuntime, kind: string, payload: unknown, runAt?: number) =>
  rt.store.jobs.enqueue({ kind, payload, runAt }, rt.clock.now())

describeBackends('durable job queue', (backend) => {
  test('runs due jobs with their payload, oldest first, and deletes them when done', async () => {
    const rt = await siteOn(backend)
    const seen: unknown[] = []
    rt.queue.handle('greet', (job) => { seen.push(job.payload) })
    await enqueue(rt, 'greet', { n: 1 })
    await enqueue(rt, 'greet', { n: 2 })
    await enqueue(rt, 'greet', { n: 3 }, rt.clock.now() + 60_000)
    expect(await rt.queue.drain()).toBe(2)
    expect(seen).toEqual([{ n: 1 }, { n: 2 }])
    expect((await jobRows(rt)).length).toBe(1)
    rt.clock.advance(60_000)
    expect(await rt.queue.drain()).toBe(1)
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }])
    expect((await jobRows(rt))).toEqual([])
  })

  test('a thrown error keeps the job with its error and a backoff; it is never dropped', async () => {
    const rt = await siteOn(backend)
    let calls = 0
    rt.queue.handle('flaky', () => { calls++; if (calls < 3) throw new Error(`boom ${calls}`) })
    await enqueue(rt, 'flaky', {})
    await rt.queue.drain()
    let [row] = await jobRows(rt)
    expect(row.attempts).toBe(1)
    expect(row.lastError).toBe('boom 1')
    expect(row.leaseUntil).toBeNull()
    expect(row.runAt).toBeGreaterThan(rt.clock.now())
    expect(await rt.queue.drain()).toBe(0) // not due yet
    rt.clock.advance(row.runAt - rt.clock.now())
    await rt.queue.drain()
    ;[row] = await jobRows(rt)
    expect(row.attempts).toBe(2)
    rt.clock.advance(row.runAt - rt.clock.now())
    await rt.queue.drain()
    expect(calls).toBe(3)
    expect((await jobRows(rt))).toEqual([])
  })

  test('a handler failing with a value String() cannot write (an object without a prototype) keeps its job, with that value as Bun prints it', async () => {
    const rt = await siteOn(backend)
    rt.queue.handle('odd', () => { throw Object.assign(Object.create(null), { reason: 'no prototype' }) })
    await enqueue(rt, 'odd', {})
    expect(await rt.queue.drain()).toBe(1)
    const [row] = await jobRows(rt)
    expect(row.attempts).toBe(1)
    expect(row.lastError).toContain('reason: "no prototype"')
    expect(row.leaseUntil).toBeNull()
    expect(row.runAt).toBeGreaterThan(rt.clock.now())
  })

  test('a handler can ask to run again at a given time', async () => {
    const rt = await siteOn(backend)
    const at = rt.clock.now() + 5000
    rt.queue.handle('later', (job) => (job.attempts === 1 ? { retryAt: at, error: 'not yet' } : undefined))
    await enqueue(rt, 'later', {})
    await rt.queue.drain()
    expect((await jobRows(rt))[0]).toMatchObject({ runAt: at, lastError: 'not yet', attempts: 1 })
    rt.clock.set(at)
    await rt.queue.drain()
    expect((await jobRows(rt))).toEqual([])
  })

  test('jobs of kinds nobody handles stay queued', async () => {
    const rt = await siteOn(backend)
    rt.queue.handle('known', () => {})
    await enqueue(rt, 'unknown', {})
    expect(await rt.queue.drain()).toBe(0)
    expect((await jobRows(rt)).map((r) => r.kind)).toEqual(['unknown'])
  })

  test('an enqueue inside a rolled-back script leaves no job (outbox semantics)', async () => {
    const rt = await siteOn(backend)
    await expect(rt.store.write(function* (tx) {
      yield* use(tx.jobs.enqueue({ kind: 'x' }, rt.clock.now()))
      throw new Error('abort')
    })).rejects.toThrow('abort')
    expect((await jobRows(rt))).toEqual([])
  })

  test('a leased job is not claimed twice; a lease left by a dead process is released at start', async () => {
    const rt = await siteOn(backend)
    let release!: () => void
    const blocked = new Promise<void>((r) => { release = r })
    let runs = 0
    rt.queue.handle('slow', async () => { runs++; await blocked })
    await enqueue(rt, 'slow', {})
    const first = rt.queue.drain()
    await until(() => runs === 1, 'the job to be claimed and running')
    // A second queue on the same database sees the lease and leaves the job alone.
    const other = createJobQueue(rt.store.jobs, rt.clock, rt.log)
    other.handle('slow', () => { runs++ })
    expect(await other.drain()).toBe(0)
    expect((await jobRows(rt))[0].leaseUntil).not.toBeNull()
    // The "restart" path: the lease is dropped and the job is due again.
    expect(await other.releaseLeases()).toBe(1)
    expect(await other.drain()).toBe(1)
    release()
    await first
    expect(runs).toBe(2)
  })

  test('bounded concurrency, and jobs enqueued while draining are picked up by the same drain', async () => {
    const rt = await siteOn(backend)
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
  test('a job left leased by a process that died runs again once its lease has ended, not before', async () => {
    const rt = await siteOn(backend, { jobs: { lease: '2m' } })
    let runs = 0
    rt.queue.handle('orphan', () => { runs++ })
    await enqueue(rt, 'orphan', {})
    // Another process claims it and dies without a word.
    const [claimed] = await rt.store.jobs.claim({ kinds: ['orphan'], now: rt.clock.now(), leaseUntil: rt.clock.now() + 120_000, limit: 1 })
    expect(claimed.attempts).toBe(1)
    rt.clock.advance(119_999)
    expect(await rt.queue.drain()).toBe(0)
    rt.clock.advance(1)
    expect(await rt.queue.drain()).toBe(1)
    expect(runs).toBe(1)
    expect(await jobRows(rt)).toEqual([])
  })

  test('a runner whose lease ran out and was replaced cannot remove or move the job: the new runner\'s outcome stands', async () => {
    const rt = await siteOn(backend, { jobs: { lease: '2m' } })
    await enqueue(rt, 'slow', {})
    const claim = () => rt.store.jobs.claim({ kinds: ['slow'], now: rt.clock.now(), leaseUntil: rt.clock.now() + 120_000, limit: 1 })
    // A process paused longer than its lease: another claims the job after the lease, and asks for a retry.
    const [stale] = await claim()
    rt.clock.advance(120_000)
    const [current] = await claim()
    expect(current).toMatchObject({ id: stale.id, attempts: 2 })
    await rt.store.jobs.reschedule(current, rt.clock.now() + 60_000, 'retry later')
    // The paused process wakes up and reports its outcome: nothing changes.
    await rt.store.jobs.remove(stale)
    await rt.store.jobs.reschedule(stale, rt.clock.now(), 'stale')
    expect(await jobRows(rt)).toEqual([{ id: stale.id, kind: 'slow', runAt: rt.clock.now() + 60_000, attempts: 2, leaseUntil: null, lastError: 'retry later' }])
  })

  test('two stores on one database draining 300 jobs at once: each job runs exactly once', async () => {
    const rt = await siteOn(backend)
    for (let i = 0; i < 300; i++) await enqueue(rt, 'count', { i })
    const other = await openStore(rt.config, { clock: rt.clock, log: rt.log })
    try {
      const runs: number[] = []
      const queues = [createJobQueue(rt.store.jobs, rt.clock, rt.log, { concurrency: 8 }), createJobQueue(other.store.jobs, rt.clock, rt.log, { concurrency: 8 })]
      for (const q of queues) q.handle<{ i: number }>('count', async (job) => { runs.push(job.payload.i); await Bun.sleep(0) })
      const ran = await Promise.all(queues.map((q) => q.drain()))
      expect(ran[0] + ran[1]).toBe(300)
      expect(runs.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i))
      expect(await jobRows(rt)).toEqual([])
    } finally {
      await other.store.close()
    }
  })
})
