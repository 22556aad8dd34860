import type { Database } from 'bun:sqlite'
import type { AuditEvent, AuditRepo, AuditTarget } from './repo.ts'

interface Row {
  id: number
  at: number
  actorId: string
  actorEmail: string
  action: string
  targetType: AuditTarget['type']
  targetId: string
  targetLabel: string
  detail: string
}

const toEvent = (r: Row): AuditEvent => ({
  id: r.id, at: r.at, actor: { id: r.actorId, email: r.actorEmail }, action: r.action,
  target: { type: r.targetType, id: r.targetId, label: r.targetLabel }, detail: JSON.parse(r.detail),
})

export function sqliteAuditRepo(db: Database) {
  const insert = db.prepare(`INSERT INTO audit_event (at, actor_id, actor_email, action, target_type, target_id, target_label, detail)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
  const page = db.prepare(`SELECT id, at, actor_id AS actorId, actor_email AS actorEmail, action, target_type AS targetType,
    target_id AS targetId, target_label AS targetLabel, detail FROM audit_event WHERE id < ? ORDER BY id DESC LIMIT ?`)
  return {
    insert(e) {
      insert.run(e.at, e.actor.id, e.actor.email, e.action, e.target.type, e.target.id, e.target.label, JSON.stringify(e.detail ?? {}))
    },
    page: (before, limit) => (page.all(before, limit) as Row[]).map(toEvent),
  } satisfies AuditRepo
}
