import { exec, rows, type Pg } from '../db/postgres-client.ts'
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

const INSERT = `INSERT INTO audit_event (at, actor_id, actor_email, action, target_type, target_id, target_label, detail)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`
const PAGE = `SELECT id, at, actor_id AS "actorId", actor_email AS "actorEmail", action, target_type AS "targetType",
  target_id AS "targetId", target_label AS "targetLabel", detail FROM audit_event WHERE id < $1 ORDER BY id DESC LIMIT $2`

export function postgresAuditRepo(pg: Pg) {
  return {
    async insert(e) {
      await exec(pg, INSERT, [e.at, e.actor.id, e.actor.email, e.action, e.target.type, e.target.id, e.target.label, JSON.stringify(e.detail ?? {})])
    },
    page: async (before, limit) => (await rows<Row>(pg, PAGE, [before, limit])).map(toEvent),
  } satisfies AuditRepo
}
