import type { Clock } from '../clock.ts'
import { errorText, type Logger } from '../log.ts'
import { databaseUnreachable, throughOutage } from '../db/outage.ts'
import type { Awaitable } from '../db/store.ts'
import type { Job, JobClaim, JobCounts, JobsRepo } from './repo.ts'
import type { Scheduler } from './scheduler.ts'

// A durable job queue over the jobs repository. Jobs are enqueued by the scripts that need them
// (tx.jobs.enqueue), so that a row and its job commit together; the queue runs them. Claiming
// sets a lease; a job whose process died runs again once the lease is gone.

// A handler returns nothing when the job is done (the row is deleted), or asks to run again
// later. A thrown error reschedules the job with backoff; a job is never dropped. `settled`: the
// handler has removed or rescheduled the job itself (tx.jobs.settle), in the transaction that
// recorded its work, and the queue leaves the row alone.
export type JobOutcome = void | { retryAt: number; error?: string } | { settled: true }
export type JobHandler<P = any> = (job: Job<P>) => Promise<JobOutcome> | JobOutcome

export interface QueueOptions {
  concurrency?: number
  leaseMs?: number
  // How a claim is written: by default in a transaction of its own. The site hands the claims to
  // the delivery attempts' ledger, whose transaction of the moment they share.
  claim?: (c: JobClaim) => Awaitable<Job[]>
}

export interface JobQueue {
  handle<P>(kind: string, handler: JobHandler<P>): void
  drain(): Promise<number>
  notify(): void
  // Jobs were queued due now through another connection (the vote writer's: src/votes/writer.ts),
  // which the repository's onDue does not hear: they are run as if queued here.
  dueElsewhere(): void
  hasten(id: number): Promise<boolean>
  onEnqueue(fn: () => void): void
  releaseLeases(): Promise<number>
  pending(): Promise<JobCounts>
  stop(): Promise<void>
}

const UNREACHABLE_BACKOFF_MS = 1000
const backoffMs = (attempts: number) => Math.min(1000 * 2 ** Math.min(attempts, 12), 3_600_000)

export function createJobQueue(jobs: JobsRepo, clock: Clock, log: Logger, opts: QueueOptions = {}): JobQueue {
  const concurrency = opts.concurrency ?? 32
  const leaseMs = opts.leaseMs ?? 10 * 60_000
  const claim = opts.claim ?? ((c: JobClaim) => jobs.claim(c))
  const handlers = new Map<string, JobHandler>()
  let kinds: readonly string[] = []
  let enqueued: () => void = () => {}
  let wakeDrain: (() => void) | null = null
  let stopping = false
  // Jobs running now, whoever drains: stop() waits for every one of them.
  const inFlight = new Set<Promise<void>>()
  const due = () => { wakeDrain?.(); enqueued() }
  jobs.onDue(due)

  // A job's settlement is made again while the database cannot be reached (PostgreSQL restarting):
  // lost, the job would stay leased by this live instance until its lease ends.
  async function runOne(job: Job) {
    const handler = handlers.get(job.kind)!
    try {
      const outcome = await handler(job)
      if (!outcome) await throughOutage(async () => jobs.remove(job))
      else if (!('settled' in outcome)) await throughOutage(async () => jobs.reschedule(job, outcome.retryAt, outcome.error ?? null))
    } catch (e) {
      const message = errorText(e)
      log.error(`job ${job.kind}#${job.id} failed`, { attempts: job.attempts, error: e })
      // A job cut short by the database's absence runs again a second later, not after the backoff
      // its attempts would earn (every claim counts one, a delivery parked for a busy target too).
      const retryAt = clock.now() + (databaseUnreachable(e) ? UNREACHABLE_BACKOFF_MS : backoffMs(job.attempts))
      await throughOutage(async () => jobs.reschedule(job, retryAt, message.slice(0, 2000)))
    }
  }

  return {
    handle(kind, handler) {
      handlers.set(kind, handler as JobHandler)
      kinds = [...handlers.keys()]
    },
    // Runs due jobs, at most `concurrency` at once, claiming more as slots free and as new jobs
    // arrive, until nothing is due and nothing runs. Returns how many jobs ran.
    async drain() {
      const running = new Set<Promise<void>>()
      let ran = 0
      for (;;) {
        const room = stopping ? 0 : concurrency - running.size
        if (room > 0) {
          const now = clock.now()
          const claimed = await claim({ kinds, now, leaseUntil: now + leaseMs, limit: room })
          for (const job of claimed) {
            ran++
            const p: Promise<void> = runOne(job).finally(() => { running.delete(p); inFlight.delete(p) })
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
    dueElsewhere: due,
    // Makes a waiting job due now (a job parked until a resource frees up). False when the job is
    // gone, running, or already due.
    hasten: async (id) => jobs.hasten(id, clock.now()),
    onEnqueue(fn) { enqueued = fn },
    // At start-up of the only process using the database, every lease belongs to a process that
    // is gone: those jobs were interrupted and must run again.
    releaseLeases: async () => jobs.releaseLeases(),
    pending: async () => jobs.counts(clock.now()),
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
  scheduler.every('jobs.drain', 1000, () => queue.drain(), { title: 'Job queue (vote deliveries and their retries)' })
  queue.onEnqueue(() => scheduler.wake('jobs.drain'))
}
