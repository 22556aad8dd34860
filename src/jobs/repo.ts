import type { Awaitable } from '../db/store.ts'

// The durable job queue's table. `enqueue` can be called from a transaction script: the row that
// needs work and its job then commit together (the outbox pattern).

export interface Job<P = unknown> {
  id: number
  kind: string
  payload: P
  runAt: number
  attempts: number // including the current one
  lastError: string | null
  leaseUntil: number // the lease of this claim
}

export interface NewJob {
  kind: string
  payload?: unknown
  runAt?: number // default: due at once
}

// What becomes of a job that ran: removed (`retryAt` null), or due again at `retryAt`.
export interface JobSettlement {
  job: Pick<Job, 'id' | 'leaseUntil'>
  retryAt: number | null
  error: string | null
}

export interface JobClaim {
  kinds: readonly string[]
  now: number
  leaseUntil: number
  limit: number
}

export interface JobCounts {
  total: number
  due: number
  leased: number
}

export interface JobsRepo {
  // Returns the job's id.
  enqueue(job: NewJob, at: number): Awaitable<number>
  // Leases up to `limit` jobs of these kinds due at `now` until `leaseUntil`, oldest first,
  // counting an attempt for each.
  claim(c: JobClaim): Awaitable<Job[]>
  // Both act only while the job still holds the lease of this claim (`job.leaseUntil`): a runner
  // whose lease ran out (a process paused longer than a lease) may have been replaced by another,
  // whose outcome then stands alone.
  remove(job: Pick<Job, 'id' | 'leaseUntil'>): Awaitable<void>
  // Runs the job again at `runAt`, its lease dropped.
  reschedule(job: Pick<Job, 'id' | 'leaseUntil'>, runAt: number, error: string | null): Awaitable<void>
  // remove() or reschedule() of many jobs at once, for a handler that settles its jobs in the
  // transaction that records their work.
  settle(settlements: JobSettlement[]): Awaitable<void>
  // Makes a waiting job due now; false when it is gone, leased or already due.
  hasten(id: number, now: number): Awaitable<boolean>
  // Drops every lease; returns how many there were.
  releaseLeases(): Awaitable<number>
  counts(now: number): Awaitable<JobCounts>
  // `fn` runs once a job due at once (enqueued, or hastened) is committed.
  onDue(fn: () => void): void
}
