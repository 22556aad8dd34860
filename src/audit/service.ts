import { use, type TxScript } from '../db/store.ts'
import type { AuditDetail, AuditRepo, AuditTarget } from './repo.ts'
import type { AuditAction } from './schema.ts'

// Who changes a server through the owner routes, and the server: an administrator acting on
// another account's server is audited, the owner's own changes are not.
export interface ServerActor {
  actor: { id: string; email: string }
  server: { id: string; name: string; ownerId: string }
}

// Writes one entry of the audit log, inside the script that makes the change: both commit or
// neither does.
export function* audit(
  tx: { audit: AuditRepo }, at: number, actor: { id: string; email: string }, action: AuditAction, target: AuditTarget, detail: AuditDetail = {},
): TxScript<void> {
  yield* use(tx.audit.insert({ at, actor: { id: actor.id, email: actor.email }, action, target, detail }))
}

// The entry of a change to a server by an administrator who does not own it; nothing otherwise.
export function* auditOnServer(tx: { audit: AuditRepo }, at: number, by: ServerActor | undefined, action: AuditAction, detail: AuditDetail): TxScript<void> {
  if (!by || by.actor.id === by.server.ownerId) return
  yield* audit(tx, at, by.actor, action, { type: 'server', id: by.server.id, label: by.server.name }, detail)
}
