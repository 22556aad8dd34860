import { exec, rows, takeIdsInCommitOrder, type Pg } from '../db/postgres-client.ts'
import type { AuditRepo } from './repo.ts'
import { auditValues, toAuditEvent, type AuditRow } from './rows.ts'

const INSERT = `INSERT INTO audit_event (at, actor_id, actor_email, action, target_type, target_id, target_label, detail)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`
const PAGE = `SELECT id, at, actor_id AS "actorId", actor_email AS "actorEmail", action, target_type AS "targetType",
  target_id AS "targetId", target_label AS "targetLabel", detail FROM audit_event WHERE id < $1 ORDER BY id DESC LIMIT $2`
// The log is paged by id (PAGE).
const ID_ORDER_LOCK = 0x61756469

export function postgresAuditRepo(pg: Pg) {
  return {
    async insert(e) {
      await takeIdsInCommitOrder(pg, ID_ORDER_LOCK)
      await exec(pg, INSERT, [...auditValues(e)])
    },
    page: async (before, limit) => (await rows<AuditRow>(pg, PAGE, [before, limit])).map(toAuditEvent),
  } satisfies AuditRepo
}
