import { HashGate } from './accounts/hash-gate.ts'
import { removeInterruptedBackups } from './admin/backup.ts'
import { FAILED_LOGIN_WINDOW_MS } from './accounts/service.ts'
import { registerSessionWork } from './accounts/session.ts'
import { registerCaptchaWork } from './captcha/service.ts'
import { registerDeliveryWork } from './deliveries/attempt.ts'
import { createDeliveryGate } from './deliveries/gate.ts'
import { createAttemptLedger } from './deliveries/ledger.ts'
import { closeInterruptedDeliveries } from './deliveries/service.ts'
import { SharedWindowLimiter } from './cluster/limiter.ts'
import { SlidingWindowLimiter, type RateLimiter } from './http/rate-limit.ts'
import { createJobQueue, registerQueueDrain } from './jobs/queue.ts'
import { createScheduler } from './jobs/scheduler.ts'
import { createKeyCache, registerKeyWork } from './keys/cache.ts'
import { newId } from './ids.ts'
import { systemLookup, type Lookup } from './net/guard.ts'
import type { StoreRuntime } from './runtime.ts'
import { registerPurgeWork } from './servers/purge.ts'
import { registerStatsWork } from './stats/round.ts'
import type { Store } from './store.ts'
import type { VoteWriter } from './votes/writer.ts'

// What only a running site needs beside its store: the job queue and the scheduler that owns
// every timer, the rate limiters, the API keys' cache and the gates that bound password hashes
// and delivery attempts. Creating it starts nothing; serve (src/serve.ts) starts the work.
export function createSite<S extends Store>(rt: StoreRuntime<S>, opts: { lookup?: Lookup } = {}) {
  const { config, clock, log, store } = rt
  const { cluster } = store
  // One process keeps its limits in memory; instances sharing a database count in it, so that a
  // limit holds whichever of them answers.
  const limiter = (name: string, limit: number, windowMs?: number): RateLimiter =>
    cluster ? new SharedWindowLimiter(cluster, name, limit, windowMs) : new SlidingWindowLimiter(limit, windowMs)
  // Writes the job claims and the delivery attempts' state of a moment in one transaction.
  const attemptLedger = createAttemptLedger(store)
  const queue = createJobQueue(store.jobs, clock, log, { leaseMs: config.jobs.lease, claim: attemptLedger.claim })
  // This process among the site's instances: it signs its claims of scheduled tasks.
  const instance = newId()
  return {
    ...rt,
    instance,
    queue,
    // Tasks registered `once` run once per period across the instances: the first to claim it.
    scheduler: createScheduler(clock, log, cluster && {
      claim: (task, period, now) => cluster.claimTask({ task, period, holder: instance, now }),
      finish: (task, period, now) => cluster.finishTask({ task, period, holder: instance, now }),
    }),
    // Name resolution for the save-time target checks (servers, webhook, Votifier); tests inject
    // one that never leaves the machine.
    lookup: opts.lookup ?? systemLookup,
    limits: {
      keyed: limiter('keyed', config.limits.keyed_per_minute),
      public: limiter('public', config.limits.public_per_minute),
      login: limiter('login', config.accounts.login_attempts_per_minute),
      failedLogins: limiter('failed_login', config.accounts.failed_logins_per_account, FAILED_LOGIN_WINDOW_MS),
      votes: limiter('vote', config.limits.vote_attempts_per_minute),
      testVotes: limiter('test_vote', config.limits.test_votes_per_minute),
      verifications: limiter('verification', config.limits.verifications_per_minute),
    },
    hashGate: new HashGate(config.accounts.hash_concurrency),
    // hash → live API key; the revoke route calls keyCache.forgetKey(id), which the other
    // instances hear (listenToOtherInstances).
    keyCache: createKeyCache(store, cluster && ((forget) => {
      cluster.notify(CACHE_CHANNEL, forget).catch((e) => log.warn('could not tell the other instances to forget a cached key; they will in a second', { error: e }))
    })),
    // Bounds delivery attempts in flight; a job parked for a busy target is woken through the queue.
    deliveryGate: createDeliveryGate(
      { total: config.deliveries.concurrency, perTarget: config.deliveries.per_target_concurrency },
      (jobId) => queue.hasten(jobId),
    ),
    attemptLedger,
    // The votes' own writer thread, while the site serves on a SQLite file (src/serve.ts).
    voteWriter: null as VoteWriter | null,
  }
}
export type Site<S extends Store = Store> = ReturnType<typeof createSite<S>>

// Every periodic task and job handler of the running site, each registered by its feature.
export function registerSiteWork(site: Site): void {
  registerQueueDrain(site.scheduler, site.queue)
  registerDeliveryWork(site.queue, site)
  // Every limiter forgets its idle keys once a minute: in memory, or in the shared database.
  const { cluster } = site.store
  site.scheduler.every('limits.sweep', 60_000, async (now) => {
    if (cluster) await cluster.purgeLimits(now)
    else for (const limiter of Object.values(site.limits)) if (limiter instanceof SlidingWindowLimiter) limiter.sweep(now)
  }, { once: true, title: 'Rate limiters sweep' })
  registerKeyWork(site.scheduler, site.keyCache)
  registerSessionWork(site.scheduler, site)
  registerStatsWork(site.scheduler, site)
  registerCaptchaWork(site.scheduler, site)
  registerPurgeWork(site.scheduler, site)
}

// The channel on which instances tell each other what to drop from their caches.
const CACHE_CHANNEL = 'votelist_cache'

// On PostgreSQL, what the other instances change reaches this one's caches at once (the key cache
// re-reads a key at most a second later in any case). After the connection that listens was lost
// and made again, everything cached is read again: notifications sent meanwhile were missed.
export async function listenToOtherInstances(site: Site): Promise<{ stop(): Promise<void> } | null> {
  const { cluster } = site.store
  if (!cluster) return null
  let first = true
  return cluster.listen(CACHE_CHANNEL, (payload) => site.keyCache.heard(payload), () => {
    if (!first) {
      site.log.info('listening to the other instances again: cached keys are read again')
      site.keyCache.forgetAll()
    }
    first = false
  })
}

// At start, before any job runs: what a process that is gone left half done. On SQLite this process
// is the database's only user (serve holds the instance lock), so every lease and every attempt
// still pending was left by one that is gone. On PostgreSQL other instances may be at work: their
// leases are left to end (a lease outlives the longest attempt), and only the attempts pending for
// longer than a lease are closed.
export async function recoverInterruptedWork(site: Site): Promise<void> {
  if (site.store.kind === 'sqlite') {
    const removed = await removeInterruptedBackups(site.config.database.path)
    if (removed.length) site.log.info('removed the temporary copies of backups the previous process did not finish', { files: removed })
    const released = await site.queue.releaseLeases()
    if (released) site.log.info('re-queued jobs interrupted by the previous stop', { jobs: released })
    await closeInterruptedDeliveries(site)
  } else {
    await closeInterruptedDeliveries(site, site.clock.now() - site.config.jobs.lease)
  }
}
