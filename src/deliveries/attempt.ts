import type { ChannelsRepo } from '../channels/repo.ts'
import { CHANNEL_LABELS } from '../channels/schema.ts'
import type { StoreWrites } from '../db/store.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Job, JobsRepo } from '../jobs/repo.ts'
import { errorText, type Logger } from '../log.ts'
import { DeliveryFailure } from '../net/guard.ts'
import type { RankingRepo } from '../servers/repo.ts'
import { channelTarget, type ChannelDeps, type ChannelTarget } from './channel.ts'
import type { DeliveryGate } from './gate.ts'
import type { AttemptLedger } from './ledger.ts'
import { DELIVERY_JOB, type DeliveriesRepo, type Delivery, type StartedAttempt } from './repo.ts'
import { FREE_RATE_LIMITED_ATTEMPTS, type DeliveryStatus } from './schema.ts'

export interface DeliveriesTx {
  deliveries: DeliveriesRepo
  channels: ChannelsRepo
  jobs: JobsRepo
}

export interface DeliveryDeps extends ChannelDeps {
  store: DeliveriesTx & StoreWrites<DeliveriesTx> & { ranking: RankingRepo }
  log: Logger
  deliveryGate: DeliveryGate
  attemptLedger: AttemptLedger
}

// Payload of a delivery job. `series`: the attempt number that began the series this job belongs
// to (absent = 1); a job of an older series than the delivery's is stale and ends quietly.
export interface DeliveryJob {
  deliveryId: string
  series?: number
}

// How long a job that found its target busy waits at most; it is woken as soon as a slot frees.
const PARK_MS = 30_000

export interface AttemptResult {
  status: Exclude<DeliveryStatus, 'pending'>
  error: string | null
  durationMs: number
  nextAttemptAt: number | null
}

// What follows a failed attempt. A test is never retried. A rate limit (the receiver said how long
// to wait) is not counted in the schedule while the series has free waits left; the next
// attempt never comes before the wait it asked for.
function afterFailure(d: Delivery, started: StartedAttempt, failure: { final: boolean; retryAfterMs?: number }, delays: number[], now: number) {
  const wait = failure.retryAfterMs
  if (d.test) return { status: 'failed' as const, nextAttemptAt: null, rateLimited: wait !== undefined }
  if (wait !== undefined && started.rateLimited < FREE_RATE_LIMITED_ATTEMPTS) return { status: 'failed' as const, nextAttemptAt: now + wait, rateLimited: true }
  if (failure.final || started.seriesAttempt > delays.length) return { status: 'gave_up' as const, nextAttemptAt: null, rateLimited: false }
  return { status: 'failed' as const, nextAttemptAt: now + Math.max(delays[started.seriesAttempt - 1], wait ?? 0), rateLimited: false }
}

// No queued attempt of any delivery goes to `target` for `ms`: its receiver asked for that pause.
function holdTarget(deps: DeliveryDeps, target: string, ms: number) {
  const now = deps.clock.now()
  deps.deliveryGate.hold(target, now + ms, now)
}

// Runs one attempt and records it: the attempt row is written 'pending' before anything is sent
// (so a crash leaves a trace that the next run closes as interrupted) and closed with the outcome,
// both through the ledger, which commits the attempts of a moment together. After a failure: the
// next retry of the series, or gave_up once the schedule is spent (a test, or a failure that
// retrying cannot fix, ends at once). `job`, the job running the attempt, is settled with its
// outcome: removed, or due again at the next attempt's time. Null when no attempt was due any more
// (the delivery is gone, has ended, or a redeliver began another series).
export async function attempt(deps: DeliveryDeps, d: Delivery, channel: ChannelTarget | null, job?: Job): Promise<AttemptResult | null> {
  const started = await deps.attemptLedger.begin({ deliveryId: d.id, series: d.seriesStart, at: deps.clock.now() })
  if (!started) return null
  const t0 = performance.now()
  let error: string | null = null
  let httpStatus: number | null = null
  let final = false
  let retryAfterMs: number | undefined
  try {
    if (!channel) throw new DeliveryFailure(`the ${CHANNEL_LABELS[d.channel]} was removed from the server's settings`, { final: true })
    const sent = await channel.send()
    httpStatus = sent.httpStatus
    if (sent.pauseMs !== undefined) holdTarget(deps, channel.target, sent.pauseMs)
  } catch (e) {
    if (e instanceof DeliveryFailure) {
      error = e.message
      httpStatus = e.detail.httpStatus ?? null
      final = e.detail.final ?? false
      retryAfterMs = e.detail.retryAfterMs
      if (retryAfterMs !== undefined && channel) holdTarget(deps, channel.target, retryAfterMs)
    } else {
      deps.log.error('delivery attempt crashed', { deliveryId: d.id, error: e })
      error = `internal error: ${errorText(e)}`
    }
  }
  const durationMs = Math.round(performance.now() - t0)
  const now = deps.clock.now()
  const { status, nextAttemptAt, rateLimited } = error === null
    ? { status: 'succeeded' as const, nextAttemptAt: null, rateLimited: false }
    : afterFailure(d, started, { final, retryAfterMs }, deps.config.deliveries.retry_delays, now)
  await deps.attemptLedger.finish(
    { attemptId: started.id, deliveryId: d.id, status, error, httpStatus, durationMs, nextAttemptAt, rateLimited, at: now },
    job && { job, retryAt: nextAttemptAt, error },
  )
  if (status === 'gave_up') deps.log.warn('delivery gave up', { deliveryId: d.id, channel: d.channel, attempt: started.attempt, error })
  else if (error) deps.log.info('delivery attempt failed', { deliveryId: d.id, channel: d.channel, attempt: started.attempt, error })
  return { status, error, durationMs, nextAttemptAt }
}

// The handler of 'delivery' jobs. The job row is the durable promise of the next attempt: it
// stays (with its run time moved to the next retry) until the delivery succeeds or gives up, and
// is settled in the transaction that records the attempt's outcome. A process that dies
// mid-attempt leaves the job leased; the next start releases it and the attempt runs again.
export function registerDeliveryWork(queue: JobQueue, deps: DeliveryDeps): void {
  queue.handle<DeliveryJob>(DELIVERY_JOB, async (job) => {
    const loaded = await deps.attemptLedger.load(job.payload.deliveryId)
    const d = loaded?.delivery
    // Gone with its server, a test (never retried), or superseded by a redeliver: nothing to do.
    if (!d || d.test || (job.payload.series ?? 1) !== d.seriesStart) return
    if (d.status === 'succeeded' || d.status === 'gave_up') return
    const channel = channelTarget(deps, d, loaded.settings)
    // The receiver asked for a pause: the job waits for it without making an attempt.
    const held = channel && deps.deliveryGate.heldUntil(channel.target, deps.clock.now())
    if (held) return { retryAt: held, error: `${channel.target} asked to wait until ${new Date(held).toISOString()}` }
    if (channel && !deps.deliveryGate.enter(channel.target)) {
      // Parked only once its new run time is stored: a freed slot wakes it by making its row due
      // (queue.hasten), which finds nothing to do while the row still holds this claim's lease.
      // Parked before, a slot freed meanwhile (PostgreSQL's round trip) took it out of the gate for
      // nothing, and it waited the whole PARK_MS.
      await deps.store.jobs.reschedule(job, deps.clock.now() + PARK_MS, `waiting for a free slot to ${channel.target}`)
      deps.deliveryGate.park(job.id, channel.target)
      return { settled: true }
    }
    try {
      if (await attempt(deps, d, channel, job)) return { settled: true }
    } finally {
      if (channel) deps.deliveryGate.leave(channel.target)
    }
  })
}
