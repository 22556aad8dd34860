import type { Database } from 'bun:sqlite'
import type { Channel, ChannelsRepo } from '../channels/repo.ts'
import { writeTx } from '../db/open.ts'
import { conflict, notFound } from '../http/errors.ts'
import { newId } from '../ids.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../log.ts'
import { DeliveryFailure } from '../net/guard.ts'
import { monthOf, type RankingRepo } from '../ranking/repo.ts'
import type { Server } from '../servers/repo.ts'
import { channelTarget, type ChannelDeps, type ChannelTarget } from './channel.ts'
import type { DeliveryGate } from './gate.ts'
import { DELIVERY_JOB, type DeliveriesRepo, type Delivery, type DeliveryStatus, type VoteEvent } from './repo.ts'

export interface DeliveryDeps extends ChannelDeps {
  db: Database
  deliveries: DeliveriesRepo
  ranking: RankingRepo
  queue: JobQueue
  log: Logger
  deliveryGate: DeliveryGate
}

// Payload of a delivery job. `series`: the attempt number that began the series this job belongs
// to (absent = 1); a job of an older series than the delivery's is stale and ends quietly.
export interface DeliveryJob {
  deliveryId: string
  series?: number
}

// How long a job that found its target busy waits at most; it is woken as soon as a slot frees.
const PARK_MS = 30_000

interface AttemptResult {
  status: Exclude<DeliveryStatus, 'pending'>
  error: string | null
  durationMs: number
  nextAttemptAt: number | null
}

// Runs one attempt and records it: the attempt row is written 'pending' before anything is sent
// (so a crash leaves a trace that the next run closes as interrupted) and closed with the outcome.
// After a failure: the next retry of the series, or gave_up once the schedule is spent (a test,
// or a failure that retrying cannot fix, ends at once).
async function attempt(deps: DeliveryDeps, d: Delivery, channel: ChannelTarget | null): Promise<AttemptResult> {
  const started = writeTx(deps.db, () => deps.deliveries.startAttempt(d, deps.clock.now()))
  const t0 = performance.now()
  let error: string | null = null
  let httpStatus: number | null = null
  let final = false
  try {
    if (!channel) throw new DeliveryFailure(`the ${d.channel === 'webhook' ? 'webhook' : 'Votifier target'} was removed from the server's settings`, { final: true })
    httpStatus = (await channel.send()).httpStatus
  } catch (e) {
    if (e instanceof DeliveryFailure) {
      error = e.message
      httpStatus = e.detail.httpStatus ?? null
      final = e.detail.final ?? false
    } else {
      deps.log.error('delivery attempt crashed', { deliveryId: d.id, error: e })
      error = `internal error: ${e instanceof Error ? e.message : String(e)}`
    }
  }
  const durationMs = Math.round(performance.now() - t0)
  const now = deps.clock.now()
  const delays = deps.config.deliveries.retry_delays
  const inSeries = started.attempt - d.seriesStart + 1
  let status: AttemptResult['status'] = 'succeeded'
  let nextAttemptAt: number | null = null
  if (error !== null) {
    if (d.test) status = 'failed'
    else if (final || inSeries > delays.length) status = 'gave_up'
    else {
      status = 'failed'
      nextAttemptAt = now + delays[inSeries - 1]
    }
  }
  writeTx(deps.db, () => {
    deps.deliveries.endAttempt(started.id, { status, error, httpStatus, durationMs, nextAttemptAt })
    deps.deliveries.setStatus(d.id, status, nextAttemptAt, now)
  })
  if (status === 'gave_up') deps.log.warn('delivery gave up', { deliveryId: d.id, channel: d.channel, attempt: started.attempt, error })
  else if (error) deps.log.info('delivery attempt failed', { deliveryId: d.id, channel: d.channel, attempt: started.attempt, error })
  return { status, error, durationMs, nextAttemptAt }
}

// The handler of 'delivery' jobs. The job row is the durable promise of the next attempt: it
// stays (with its run time moved to the next retry) until the delivery succeeds or gives up. A
// process that dies mid-attempt leaves the job leased; the next start releases it and the
// attempt runs again.
export function registerDeliveryWork(queue: JobQueue, deps: DeliveryDeps): void {
  queue.handle<DeliveryJob>(DELIVERY_JOB, async (job) => {
    const d = deps.deliveries.get(job.payload.deliveryId)
    // Gone with its server, a test (never retried), or superseded by a redeliver: nothing to do.
    if (!d || d.test || (job.payload.series ?? 1) !== d.seriesStart) return
    if (d.status === 'succeeded' || d.status === 'gave_up') return
    const channel = channelTarget(deps, d)
    if (channel && !deps.deliveryGate.enter(channel.target)) {
      deps.deliveryGate.park(job.id, channel.target)
      return { retryAt: deps.clock.now() + PARK_MS, error: `waiting for a free slot to ${channel.target}` }
    }
    try {
      const result = await attempt(deps, d, channel)
      if (result.nextAttemptAt !== null) return { retryAt: result.nextAttemptAt, error: result.error ?? undefined }
    } finally {
      if (channel) deps.deliveryGate.leave(channel.target)
    }
  })
}

// The start-up step of a site, before any job runs: every attempt still pending was cut short by
// the previous process. A queued delivery runs again through its job; a test just failed.
export function closeInterruptedDeliveries(deps: Pick<DeliveryDeps, 'deliveries' | 'clock' | 'log'>): void {
  const interrupted = deps.deliveries.closeInterrupted(deps.clock.now())
  if (interrupted) deps.log.info('closed delivery attempts interrupted by the previous stop', { attempts: interrupted })
}

// One delivery per channel the server has configured, recorded with the vote in the caller's
// transaction (the outbox: an acknowledged vote never forgets its notifications). A vote's
// deliveries each get a job; a test's are sent at once by the Test button, never queued. Returns
// the deliveries' ids, in the channels' order.
export function queueDeliveries(deps: { channels: ChannelsRepo; deliveries: DeliveriesRepo; queue: JobQueue }, event: VoteEvent, at: number, opts: { test?: boolean } = {}): string[] {
  const test = opts.test ?? false
  return deps.channels.configured(event.server.id).map((channel) => {
    const id = newId()
    // A test has no vote row: its trial vote is named by the delivery itself.
    const payload = test ? { ...event, vote: { ...event.vote, id } } : event
    deps.deliveries.insert({ id, serverId: event.server.id, voteId: test ? null : event.vote.id, channel, test, pseudo: event.vote.pseudo, payload, at })
    if (!test) deps.queue.enqueue(DELIVERY_JOB, { deliveryId: id } satisfies DeliveryJob)
    return id
  })
}

export interface TestResult {
  channel: Channel
  status: 'succeeded' | 'failed'
  error: string | null
  durationMs: number
}

// The Test button: a trial vote on every configured channel at once, sent now, outside the queue;
// recorded in the Deliveries tab as a test; never retried and never counted as a vote.
export async function sendTestVotes(deps: DeliveryDeps, server: Server, pseudo: string, address: string | null): Promise<TestResult[]> {
  const now = deps.clock.now()
  const event: VoteEvent = {
    server: { id: server.id, slug: server.slug, name: server.name }, vote: { id: '', pseudo, createdAt: now }, address,
    monthlyVotes: deps.ranking.monthVotes(server.id, monthOf(now)),
  }
  const ids = writeTx(deps.db, () => queueDeliveries(deps, event, now, { test: true }))
  if (!ids.length) throw conflict('nothing to test: configure a Votifier target or a webhook first')
  return Promise.all(ids.map(async (id): Promise<TestResult> => {
    const d = deps.deliveries.get(id)!
    const channel = channelTarget(deps, d)
    const entered = !channel || deps.deliveryGate.enter(channel.target)
    const busy = () => Promise.reject(new DeliveryFailure('too many deliveries to this target are in progress right now; try again in a moment'))
    try {
      const r = await attempt(deps, d, entered ? channel : { target: channel.target, send: busy })
      return { channel: d.channel, status: r.status === 'succeeded' ? 'succeeded' : 'failed', error: r.error, durationMs: r.durationMs }
    } finally {
      if (channel && entered) deps.deliveryGate.leave(channel.target)
    }
  }))
}

// Sends a delivery again by hand: a new series of attempts (the first at once, then the whole
// retry schedule), whatever the delivery's status. The attempt numbers go on from the last one.
export function redeliver(deps: DeliveryDeps, server: Server, deliveryId: string) {
  return writeTx(deps.db, () => {
    const d = deps.deliveries.get(deliveryId)
    if (!d || d.serverId !== server.id) throw notFound(`no delivery with the id "${deliveryId}" for this server`)
    if (d.test) throw conflict('a test is never sent again: press Test for a new one')
    if (deps.deliveries.attemptInProgress(d.id)) throw conflict('an attempt of this delivery is in progress; wait for its outcome')
    if (!deps.channels.configured(server.id).includes(d.channel)) {
      throw conflict(`no ${d.channel === 'webhook' ? 'webhook' : 'Votifier target'} is configured any more: set it up again first`)
    }
    const now = deps.clock.now()
    const series = d.attempts + 1
    deps.deliveries.startSeries(d.id, series, now)
    deps.queue.enqueue(DELIVERY_JOB, { deliveryId: d.id, series } satisfies DeliveryJob)
    return { id: d.id, channel: d.channel, status: 'pending' as const, nextAttempt: series, nextAttemptAt: now }
  })
}
