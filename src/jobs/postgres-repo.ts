import { exec, jsonParam, row, rows, type Pg } from '../db/postgres-client.ts'
import type { Job, JobCounts, JobsRepo } from './repo.ts'

// Several processes claim from one table: the claim takes due rows with FOR UPDATE SKIP LOCKED,
// so two claims running at once take different jobs (neither waits for the other), and a row
// whose lease another claim has just committed is checked again and left alone.
const CLAIM = `UPDATE job SET lease_until = $1, attempts = attempts + 1
  WHERE id IN (SELECT id FROM job
                WHERE run_at <= $2 AND (lease_until IS NULL OR lease_until <= $2) AND kind = ANY($3::text[])
                ORDER BY run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
  RETURNING id, kind, payload, run_at AS "runAt", attempts, last_error AS "lastError"`
// Many jobs settled in two statements: the done ones removed, the others moved to their next run.
const SETTLE = `WITH s AS (SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS s(id bigint, lease bigint, run_at bigint, error text)),
  done AS (DELETE FROM job USING s WHERE job.id = s.id AND job.lease_until = s.lease AND s.run_at IS NULL)
  UPDATE job SET run_at = s.run_at, lease_until = NULL, last_error = s.error
  FROM s WHERE job.id = s.id AND job.lease_until = s.lease AND s.run_at IS NOT NULL`
const COUNTS = `SELECT count(*) AS total,
    count(*) FILTER (WHERE run_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)) AS due,
    count(*) FILTER (WHERE lease_until > $1) AS leased
  FROM job`

// Runs `fn` once the transaction of the calling statement has committed (at once outside one).
export type AfterCommit = (fn: () => void) => void

// The jobs repository of one store: its listeners are shared by the repositories of every
// transaction, which are built from it.
export function postgresJobsRepos() {
  const listeners: (() => void)[] = []
  const due = () => { for (const fn of listeners) fn() }

  return (pg: Pg, afterCommit: AfterCommit) => ({
    async enqueue(job, at) {
      const runAt = job.runAt ?? at
      const { id } = (await row<{ id: number }>(pg, 'INSERT INTO job (kind, payload, run_at, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
        [job.kind, JSON.stringify(job.payload ?? {}), runAt, at]))!
      if (runAt <= at) afterCommit(due)
      return id
    },
    async claim(c) {
      const found = await rows<Omit<Job, 'payload' | 'leaseUntil'> & { payload: string }>(pg, CLAIM, [c.leaseUntil, c.now, c.kinds, c.limit])
      // RETURNING gives no order: oldest first, as the queue promises.
      return found.sort((a, b) => a.runAt - b.runAt || a.id - b.id).map((r): Job => ({ ...r, payload: JSON.parse(r.payload), leaseUntil: c.leaseUntil }))
    },
    async remove(job) {
      await exec(pg, 'DELETE FROM job WHERE id = $1 AND lease_until = $2', [job.id, job.leaseUntil])
    },
    async reschedule(job, runAt, error) {
      await exec(pg, 'UPDATE job SET run_at = $1, lease_until = NULL, last_error = $2 WHERE id = $3 AND lease_until = $4', [runAt, error, job.id, job.leaseUntil])
    },
    async settle(settlements) {
      const list = settlements.map((s) => ({ id: s.job.id, lease: s.job.leaseUntil, run_at: s.retryAt, error: s.error }))
      await exec(pg, SETTLE, [jsonParam(list)])
    },
    async hasten(id, now) {
      if ((await exec(pg, 'UPDATE job SET run_at = $1 WHERE id = $2 AND run_at > $1 AND lease_until IS NULL', [now, id])) === 0) return false
      afterCommit(due)
      return true
    },
    releaseLeases: () => exec(pg, 'UPDATE job SET lease_until = NULL WHERE lease_until IS NOT NULL'),
    counts: async (now) => (await row<JobCounts>(pg, COUNTS, [now]))!,
    onDue(fn) { listeners.push(fn) },
  } satisfies JobsRepo)
}
