import { writeTx } from '../db/open.ts'
import type { Runtime } from '../runtime.ts'
import { DAY } from './repo.ts'
import { runPingRound } from './round.ts'

// Ping rounds on multiples of the interval (UTC-aligned, so every server's samples share the same
// t), and the hourly retention of raw samples.
export function registerStatsTasks(rt: Runtime) {
  const intervalMs = rt.config.stats.ping_interval_seconds * 1000
  rt.scheduler.every('stats.ping', intervalMs, (now, signal) => runPingRound(rt, now, { signal }), { align: true })
  rt.scheduler.every('stats.retention', 3600_000, (now) => {
    const deleted = rt.stats.purgeBefore(now - rt.config.stats.raw_retention_days * DAY, (fn) => writeTx(rt.db, fn))
    if (deleted) rt.log.info('purged raw ping samples', { deleted, keptDays: rt.config.stats.raw_retention_days })
  })
}
