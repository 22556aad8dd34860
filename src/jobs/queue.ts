import type { Database } from 'bun:sqlite'
import type { Clock } from '../clock.ts'
import type { Logger } from '../log.ts'
import type { Scheduler } from './scheduler.ts'

// A durable job queue in the `job` table. Enqueue is synchronous so it can join the caller's
// transaction (the outbox pattern: the row that needs work and its job commit together).
// Claiming sets a lease; a job whose process died runs again once the lease is gone.

export interface Job<P = unknown> {
  id: number
  kind: string
  payload: P
  runAt: number
  attempts: number // including the current one
  lastError: string | null
}

// A handler returns nothing when the job is done (the row is deleted), or asks to run again
// later. A thrown error reschedules the job with backoff; a job is never dropped.
export type JobOutcome = void | { retryAt: number; error?: string }
export type JobHandler<P = any> = (job: Job<P>) => Promise<JobOutcome> | JobOutcome

export interface QueueOptions {
  concurrency?: number
  leaseMs?: number
}

export interface JobQueue {
  enqueue(kind: string, payload?: unknown, runAt?: number): number
  handle<P>(kind: string, handler: JobHandler<P>): void
  drain(): Promise<number>
  notify(): void
  hasten(id: number): boolean
  onEnqueue(fn: () => void): void
  releaseLeases(): number
  pending(): { total: number; due: number; leased: number }
  stop(): Promise<void>
}

const backoffMs = (attempts: number) => Math.min(1000 * 2 ** Math.min(attempts, 12), 3_600_000)

export function createJobQueue(db: Database, clock: Clock, log: Logger, opts: QueueOptions = {}): JobQueue {
  const concurrency = opts.concurrency ?? 32
  const leaseMs = opts.leaseMs ?? 10 * 60_000
  const handlers = new Map<string, JobHandler>()
  let kindsJson = '[]'
  let enqueued: () => void = () => {}
  let wakeDrain: (() => void) | null = null
  let stopping = false
  // Jobs running now, whoever drains: stop() waits for every one of them.
  const inFlight = new Set<Promise<void>>()

  const insert = db.prepare('INSERT INTO job (kind, payload, run_at, created_at) VALUES (?, ?, ?, ?)')
  // `LIMIT +?4`, not `LIMIT ?4`: Bun 1.4.5's SQLite prepares a statement with a bare-parameter
  // LIMIT again at every run (measured: 19 µs instead of 7 µs a claim; see src/votes/repo.ts).
  const claim = db.prepare(`
    UPDATE job SET lease_until = ?1, attempts = attempts + 1
     WHERE id IN (SELECT id FROM job
                   WHERE run_at <= ?2 AND (lease_until IS NULL OR lease_until <= ?2)
                     AND +kind IN (SELECT value FROM json_each(?3))
                   ORDER BY run_at, id LIMIT +?4)
    RETURNING id, kind, payload, run_at AS runAt, attempts, last_error AS lastError`)
  const remove = db.prepare('DELETE FROM job WHERE id = ?')
  const reschedule = db.prepare('UPDATE job SET run_at = ?, lease_until = NULL, last_error = ? WHERE id = ?')
  const hastenJob = db.prepare('UPDATE job SET run_at = ?1 WHERE id = ?2 AND run_at > ?1 AND lease_until IS NULL')
  const release = db.prepare('UPDATE job SET lease_until = NULL WHERE lease_until IS NOT NULL')
  const counts = db.prepare(`SELECT count(*) AS total,
      coalesce(sum(run_at <= ?1 AND (lease_until IS NULL OR lease_until <= ?1)), 0) AS due,
      coalesce(sum(lease_until > ?1), 0) AS leased FROM job`)

  async function runOne(row: Job<string>) {
    const job: Job = { ...row, payload: JSON.parse(row.payload) }
    const handler = handlers.get(job.kind)!
    try {
      const outcome = await handler(job)
      if (outcome) reschedule.run(outcome.retryAt, outcome.error ?? null, job.id)
      else remove.run(job.id)
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e)
      log.error(`job ${job.kind}#${job.id} failed`, { attempts: job.attempts, error: e })
      reschedule.run(clock.now() + backoffMs(job.attempts), message.slice(0, 2000), job.id)
    }
  }

  return {
    enqueue(kind, payload = {}, runAt) {
      const now = clock.now()
      const id = Number(insert.run(kind, JSON.stringify(payload), runAt ?? now, now).lastInsertRowid)
      if ((runAt ?? now) <= now) queueMicrotask(() => { wakeDrain?.(); enqueued() })
      return id
    },
    handle(kind, handler) {
      handlers.set(kind, handler as JobHandler)
      kindsJson = JSON.stringify([...handlers.keys()])
    },
    // Runs due jobs, at most `concurrency` at once, claiming more as slots free and as new jobs
    // arrive, until nothing is due and nothing runs. Returns how many jobs ran.
    async drain() {
      const running = new Set<Promise<void>>()
      let ran = 0
      for (;;) {
        const room = stopping ? 0 : concurrency - running.size
        if (room > 0) {
          const rows = (claim.all(clock.now() + leaseMs, clock.now(), kindsJson, room) as Job<string>[]).sort((a, b) => a.runAt - b.runAt || a.id - b.id)
          for (const row of rows) {
            ran++
            const p: Promise<void> = runOne(row).finally(() => { running.delete(p); inFlight.delete(p) })
            running.add(p)
            inFlight.add(p)
          }
        }
        if (running.size === 0) return ran
        const woken = new Promise<void>((resolve) => { wakeDrain = resolve })
        await Promise.race([woken, ...running])
        wakeDrain = null
      }
    },
    notify: () => wakeDrain?.(),
    // Makes a waiting job due now (a job parked until a resource frees up). False when the job is
    // gone, running, or already due.
    hasten(id) {
      if (hastenJob.run(clock.now(), id).changes === 0) return false
      queueMicrotask(() => { wakeDrain?.(); enqueued() })
      return true
    },
    onEnqueue(fn) { enqueued = fn },
    // At start-up of the only process using the database, every lease belongs to a process that
    // is gone: those jobs were interrupted and must run again.
    releaseLeases: () => release.run().changes,
    pending: () => counts.get(clock.now()) as { total: number; due: number; leased: number },
    // Graceful stop: claim nothing more, let the running jobs finish. Jobs still queued stay in
    // the table for the next start.
    async stop() {
      stopping = true
      wakeDrain?.()
      while (inFlight.size) await Promise.allSettled([...inFlight])
    },
  }
}

// The queue is drained every second, and at once when a job is enqueued for now.
export function registerQueueDrain(scheduler: Scheduler, queue: JobQueue): void {
  scheduler.every('jobs.drain', 1000, () => queue.drain())
  queue.onEnqueue(() => scheduler.wake('jobs.drain'))
}
