import type { Database } from 'bun:sqlite'
import { usersRepo } from './accounts/repo.ts'
import { systemClock, type Clock } from './clock.ts'
import type { Config } from './config/load.ts'
import { migrate } from './db/migrate.ts'
import { openDatabase } from './db/open.ts'
import { deliveriesRepo } from './deliveries/repo.ts'
import { createJobQueue } from './jobs/queue.ts'
import { createScheduler } from './jobs/scheduler.ts'
import { keysRepo } from './keys/repo.ts'
import { createLogger, type Logger } from './log.ts'
import { serversRepo } from './servers/repo.ts'
import { votesRepo } from './votes/repo.ts'

// Everything a command or the HTTP app works with, built once from the config: the database
// (migrated), one repo per table group, the job queue and the scheduler. No module keeps its own
// singleton; whoever needs a part is handed it.
export function createRuntime(config: Config, opts: { clock?: Clock; log?: Logger; db?: Database } = {}) {
  const clock = opts.clock ?? systemClock
  const log = opts.log ?? createLogger(config.log.level)
  const db = opts.db ?? openDatabase(config.database.path)
  migrate(db, undefined, clock.now())
  const queue = createJobQueue(db, clock, log)
  const scheduler = createScheduler(clock, log)
  return {
    config, clock, log, db, queue, scheduler,
    users: usersRepo(db),
    servers: serversRepo(db),
    keys: keysRepo(db),
    votes: votesRepo(db),
    deliveries: deliveriesRepo(db),
  }
}
export type Runtime = ReturnType<typeof createRuntime>
