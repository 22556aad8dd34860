import { use, type TxScript } from '../db/store.ts'
import type { AuditDetail, AuditRepo, AuditTarget } from './repo.ts'
import type { AuditAction } from './schema.ts'

// Writes one entry of the audit log, inside the script that makes the change: both commit or
// neither does.
export function* audit(
  tx: { audit: AuditRepo }, at: number, actor: { id: string; email: string }, action: AuditAction, target: AuditTarget, detail: AuditDetail = {},
): TxScript<void> {
  yield* use(tx.audit.insert({ at, actor: { id: actor.id, email: actor.email }, action, target, detail }))
}
