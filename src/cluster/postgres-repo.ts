import { exec, row, type Pg } from '../db/postgres-client.ts'
import type { ClusterRepo, LimitCount } from './repo.ts'

// The counting itself is the function rate_limit_hit (migrations/postgres/0090_cluster.sql, as
// 0096_rate_limit_hit_locked.sql replaced it): one statement per request, deciding under the
// counter row's lock.
const HIT = 'SELECT allowed, used, frees_at AS "freesAt" FROM rate_limit_hit($1, $2, $3, $4, $5, $6)'

// A period is taken by the first instance to claim it: the row's lock orders claims made at once,
// and a claim of a period already taken (or older than the one recorded) changes nothing.
const CLAIM = `INSERT INTO task_run AS r (task, period, holder, claimed_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (task) DO UPDATE SET period = excluded.period, holder = excluded.holder, claimed_at = excluded.claimed_at, finished_at = NULL
  WHERE r.period < excluded.period
  RETURNING holder`

export function postgresClusterRepo(pg: Pg): ClusterRepo {
  return {
    hitLimit: async (h) => (await row<LimitCount>(pg, HIT, [h.name, h.key, h.now, h.limit, h.windowMs, h.count]))!,
    purgeLimits: (now) => exec(pg, 'DELETE FROM rate_limit WHERE expires_at <= $1', [now]),
    claimTask: async (c) => (await row(pg, CLAIM, [c.task, c.period, c.holder, c.now])) !== null,
    async finishTask(c) {
      await exec(pg, 'UPDATE task_run SET finished_at = $4 WHERE task = $1 AND period = $2 AND holder = $3', [c.task, c.period, c.holder, c.now])
    },
    async notify(channel, payload) {
      await pg.notify(channel, payload)
    },
    async listen(channel, onPayload, onListening) {
      const subscription = await pg.listen(channel, onPayload, onListening)
      return { stop: () => subscription.unlisten() }
    },
  }
}
