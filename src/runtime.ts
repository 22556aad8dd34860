import type { Database } from 'bun:sqlite'
import { HashGate } from './accounts/hash-gate.ts'
import { sessionsRepo, settingsRepo, usersRepo } from './accounts/repo.ts'
import { registerSessionWork } from './accounts/session.ts'
import { FAILED_LOGIN_WINDOW_MS } from './accounts/service.ts'
import { captchaRepo } from './captcha/repo.ts'
import { registerCaptchaWork } from './captcha/service.ts'
import { channelsRepo } from './channels/repo.ts'
import { systemClock, type Clock } from './clock.ts'
import type { Config } from './config/load.ts'
import { migrate } from './db/migrate.ts'
import { openDatabase } from './db/open.ts'
import { createDeliveryGate } from './deliveries/gate.ts'
import { deliveriesRepo } from './deliveries/repo.ts'
import { registerDeliveryWork } from './deliveries/service.ts'
import { createJobQueue, registerQueueDrain } from './jobs/queue.ts'
import { createScheduler } from './jobs/scheduler.ts'
import { registerLimiterSweep, SlidingWindowLimiter } from './http/rate-limit.ts'
import { createKeyCache, registerKeyWork } from './keys/cache.ts'
import { keysRepo } from './keys/repo.ts'
import { systemLookup, type Lookup } from './net/guard.ts'
import { createLogger, type Logger } from './log.ts'
import { pagesRepo } from './pages/repo.ts'
import { rankingRepo } from './ranking/repo.ts'
import { serversRepo } from './servers/repo.ts'
import { statsRepo } from './stats/repo.ts'
import { registerStatsWork } from './stats/round.ts'
import { votesRepo } from './votes/repo.ts'
import { verificationRepo } from './verification/repo.ts'

// Everything a command or the HTTP app works with, built once from the config: the database
// (migrated), one repo per table group, the job queue and the scheduler. No module keeps its own
// singleton; whoever needs a part is handed it.
export function createRuntime(config: Config, opts: { clock?: Clock; log?: Logger; db?: Database; lookup?: Lookup } = {}) {
  const clock = opts.clock ?? systemClock
  const log = opts.log ?? createLogger(config.log.level)
  const db = opts.db ?? openDatabase(config.database.path)
  migrate(db, undefined, clock.now())
  const queue = createJobQueue(db, clock, log)
  const scheduler = createScheduler(clock, log)
  // Signs sessions, captcha challenges and dual-stack tokens; created by the first migration.
  const secret = Buffer.from(settingsRepo(db).get('secret')!, 'hex')
  const keys = keysRepo(db)
  return {
    config, clock, log, db, queue, scheduler, secret,
    // Name resolution for the save-time target checks (servers, webhook, Votifier); tests inject
    // one that never leaves the machine.
    lookup: opts.lookup ?? systemLookup,
    limits: {
      keyed: new SlidingWindowLimiter(config.limits.keyed_per_minute),
      public: new SlidingWindowLimiter(config.limits.public_per_minute),
      login: new SlidingWindowLimiter(config.accounts.login_attempts_per_minute),
      failedLogins: new SlidingWindowLimiter(config.accounts.failed_logins_per_account, FAILED_LOGIN_WINDOW_MS),
      votes: new SlidingWindowLimiter(config.limits.vote_attempts_per_minute),
      testVotes: new SlidingWindowLimiter(config.limits.test_votes_per_minute),
    },
    hashGate: new HashGate(config.accounts.hash_concurrency),
    users: usersRepo(db),
    sessions: sessionsRepo(db),
    servers: serversRepo(db),
    keys,
    // hash → live API key; the revoke route calls keyCache.forgetKey(id).
    keyCache: createKeyCache(db, keys),
    votes: votesRepo(db),
    verification: verificationRepo(db),
    deliveries: deliveriesRepo(db),
    channels: channelsRepo(db),
    ranking: rankingRepo(db),
    // Bounds delivery attempts in flight; a job parked for a busy target is woken through the queue.
    deliveryGate: createDeliveryGate(
      { total: config.deliveries.concurrency, perTarget: config.deliveries.per_target_concurrency },
      (jobId) => queue.hasten(jobId),
    ),
    stats: statsRepo(db),
    captcha: captchaRepo(db),
    pages: pagesRepo(db),
  }
}
export type Runtime = ReturnType<typeof createRuntime>

// Every periodic task and job handler of the running site, each registered by its feature.
export function registerSiteWork(rt: Runtime): void {
  registerQueueDrain(rt.scheduler, rt.queue)
  registerDeliveryWork(rt.queue, rt)
  registerLimiterSweep(rt.scheduler, Object.values(rt.limits))
  registerKeyWork(rt.scheduler, rt.keyCache)
  registerSessionWork(rt.scheduler, rt)
  registerStatsWork(rt.scheduler, rt)
  registerCaptchaWork(rt.scheduler, rt)
}
