import type { AuditEvent, AuditTarget, NewAuditEvent } from './repo.ts'

// An audit_event row as both backends select it (the same column aliases), and back to an event.
export interface AuditRow {
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

export const toAuditEvent = (r: AuditRow): AuditEvent => ({
  id: r.id, at: r.at, actor: { id: r.actorId, email: r.actorEmail }, action: r.action,
  target: { type: r.targetType, id: r.targetId, label: r.targetLabel }, detail: JSON.parse(r.detail),
})

// The values of an insert, in the order of the columns (at, actor_id, actor_email, action,
// target_type, target_id, target_label, detail).
export const auditValues = (e: NewAuditEvent) =>
  [e.at, e.actor.id, e.actor.email, e.action, e.target.type, e.target.id, e.target.label, JSON.stringify(e.detail ?? {})] as const
