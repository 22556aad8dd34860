import type { Database } from 'bun:sqlite'
import type { Job, JobCounts, JobsRepo } from './repo.ts'

export function sqliteJobsRepo(db: Database) {
  const insert = db.prepare('INSERT INTO job (kind, payload, run_at, created_at) VALUES (?, ?, ?, ?)')
  // `LIMIT +?4`, not `LIMIT ?4`: Bun 1.4.5's SQLite prepares a statement with a bare-parameter
  // LIMIT again at every run (measured: 19 µs instead of 7 µs a claim; see src/votes/sqlite-repo.ts).
  const claim = db.prepare(`
    UPDATE job SET lease_until = ?1, attempts = attempts + 1
     WHERE id IN (SELECT id FROM job
                   WHERE run_at <= ?2 AND (lease_until IS NULL OR lease_until <= ?2)
                     AND +kind IN (SELECT value FROM json_each(?3))
                   ORDER BY run_at, id LIMIT +?4)
    RETURNING id, kind, payload, run_at AS runAt, attempts, last_error AS lastError`)
  const remove = db.prepare('DELETE FROM job WHERE id = ? AND lease_until = ?')
  const reschedule = db.prepare('UPDATE job SET run_at = ?, lease_until = NULL, last_error = ? WHERE id = ? AND lease_until = ?')
  const hasten = db.prepare('UPDATE job SET run_at = ?1 WHERE id = ?2 AND run_at > ?1 AND lease_until IS NULL')
  const release = db.prepare('UPDATE job SET lease_until = NULL WHERE lease_until IS NOT NULL')
  const counts = db.prepare(`SELECT count(*) AS total,
      coalesce(sum(run_at <= ?1 AND (lease_until IS NULL OR lease_until <= ?1)), 0) AS due,
      coalesce(sum(lease_until > ?1), 0) AS leased FROM job`)
  const listeners: (() => void)[] = []
  // A microtask runs after the synchronous transaction around the call has committed.
  const due = () => queueMicrotask(() => { for (const fn of listeners) fn() })
  // The kinds as the JSON array json_each() reads, rebuilt only when the list changes.
  let kinds: readonly string[] = []
  let kindsJson = '[]'

  return {
    enqueue(job, at) {
      const runAt = job.runAt ?? at
      const id = Number(insert.run(job.kind, JSON.stringify(job.payload ?? {}), runAt, at).lastInsertRowid)
      if (runAt <= at) due()
      return id
    },
    claim(c) {
      if (c.kinds !== kinds) {
        kinds = c.kinds
        kindsJson = JSON.stringify(c.kinds)
      }
      const rows = claim.all(c.leaseUntil, c.now, kindsJson, c.limit) as (Omit<Job, 'payload' | 'leaseUntil'> & { payload: string })[]
      // RETURNING gives no order: oldest first, as the queue promises.
      return rows.sort((a, b) => a.runAt - b.runAt || a.id - b.id).map((r): Job => ({ ...r, payload: JSON.parse(r.payload), leaseUntil: c.leaseUntil }))
    },
    remove(job) { remove.run(job.id, job.leaseUntil) },
    reschedule(job, runAt, error) { reschedule.run(runAt, error, job.id, job.leaseUntil) },
    settle(settlements) {
      for (const s of settlements) {
        if (s.retryAt === null) remove.run(s.job.id, s.job.leaseUntil)
        else reschedule.run(s.retryAt, s.error, s.job.id, s.job.leaseUntil)
      }
    },
    hasten(id, now) {
      if (hasten.run(now, id).changes === 0) return false
      due()
      return true
    },
    releaseLeases: () => release.run().changes,
    counts: (now) => counts.get(now) as JobCounts,
    onDue(fn) { listeners.push(fn) },
  } satisfies JobsRepo
}
