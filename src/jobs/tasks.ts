import { DELIVERY_JOB } from '../deliveries/repo.ts'
import { deliveryJobHandler } from '../deliveries/service.ts'
import type { Runtime } from '../runtime.ts'
import { registerStatsTasks } from '../stats/tasks.ts'

// Every periodic task and job handler of the running site, registered on the one scheduler.
export function registerTasks(rt: Runtime) {
  // The queue is drained every second and at once when a job is enqueued for now.
  rt.scheduler.every('jobs.drain', 1000, () => rt.queue.drain())
  rt.queue.onEnqueue(() => rt.scheduler.wake('jobs.drain'))
  rt.queue.handle(DELIVERY_JOB, deliveryJobHandler(rt))
  const interrupted = rt.deliveries.closeInterrupted(rt.clock.now())
  if (interrupted) rt.log.info('closed delivery attempts interrupted by the previous stop', { attempts: interrupted })
  rt.scheduler.every('limits.sweep', 60_000, (now) => {
    rt.limits.keyed.sweep(now)
    rt.limits.public.sweep(now)
    rt.limits.login.sweep(now)
    rt.limits.failedLogins.sweep(now)
    rt.limits.votes.sweep(now)
  })
  // API keys' last_used_at, kept in memory by the key cache: at most one write a minute per key.
  rt.scheduler.every('keys.last-used', 60_000, (now) => { rt.keyCache.flush(now) })
  rt.scheduler.every('sessions.purge', 3600_000, (now) => { rt.sessions.purgeExpired(now) })
  registerStatsTasks(rt)
  // Used captcha solutions only matter until their challenge expires.
  rt.scheduler.every('captcha.purge', 600_000, (now) => { rt.captcha.purgeExpired(now) })
}
