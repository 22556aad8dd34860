import { exec, lockUntilCommit, rows, type Pg } from '../db/postgres-client.ts'
import type { AuditRepo } from './repo.ts'
import { auditValues, toAuditEvent, type AuditRow } from './rows.ts'

const INSERT = `INSERT INTO audit_event (at, actor_id, actor_email, action, target_type, target_id, target_label, detail)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`
const PAGE = `SELECT id, at, actor_id AS "actorId", actor_email AS "actorEmail", action, target_type AS "targetType",
  target_id AS "targetId", target_label AS "targetLabel", detail FROM audit_event WHERE id < $1 ORDER BY id DESC LIMIT $2`
// The log is paged by id (PAGE), and an id is taken when a transaction inserts while the row
// appears when it commits: a transaction that took id 4 and committed after another took 5 and
// committed was skipped by an admin who had paged past 4 meanwhile. Each insert takes this lock
// last thing before its INSERT, held until its commit, which PostgreSQL makes visible before it
// releases the lock: the next insert takes its id only then, ids appear in commit order, and every
// id below the newest visible one is committed, so the page's cursor is exact. Readers take no
// lock; audit entries (admin actions) are few, so their inserts queuing costs nothing that matters.
const ID_ORDER_LOCK = 0x61756469 // "audi"

export function postgresAuditRepo(pg: Pg) {
  return {
    async insert(e) {
      await lockUntilCommit(pg, ID_ORDER_LOCK)
      await exec(pg, INSERT, [...auditValues(e)])
    },
    page: async (before, limit) => (await rows<AuditRow>(pg, PAGE, [before, limit])).map(toAuditEvent),
  } satisfies AuditRepo
}
