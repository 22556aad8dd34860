import type { Database } from 'bun:sqlite'
import type { AuditRepo } from './repo.ts'
import { auditValues, toAuditEvent, type AuditRow } from './rows.ts'

export function sqliteAuditRepo(db: Database) {
  const insert = db.prepare(`INSERT INTO audit_event (at, actor_id, actor_email, action, target_type, target_id, target_label, detail)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
  const page = db.prepare(`SELECT id, at, actor_id AS actorId, actor_email AS actorEmail, action, target_type AS targetType,
    target_id AS targetId, target_label AS targetLabel, detail FROM audit_event WHERE id < ? ORDER BY id DESC LIMIT ?`)
  return {
    insert(e) {
      insert.run(...auditValues(e))
    },
    page: (before, limit) => (page.all(before, limit) as AuditRow[]).map(toAuditEvent),
  } satisfies AuditRepo
}
