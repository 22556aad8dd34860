import { t } from 'elysia'
import { Int, Iso, iso } from '../http/schema.ts'
import type { AuditEvent } from './repo.ts'

// What the audit log records, one name per kind of change.
export const AUDIT_ACTIONS = [
  'user.disable', 'user.enable', 'user.promote', 'user.demote', 'user.delete', 'user.reset_link', 'user.password_reset',
  'server.hide', 'server.show', 'server.update', 'server.delete', 'server.key_create', 'server.key_revoke', 'server.channel_set', 'server.channel_rotate', 'server.channel_remove', 'server.test_vote', 'server.redeliver', 'site.backup',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

export const AuditEntryJson = t.Object({
  id: Int({ description: 'Increasing; the `before` cursor of the next page.' }),
  at: Iso,
  actor: t.Object({ id: t.String(), email: t.String({ description: 'As it was at the time.' }) }),
  action: t.UnionEnum(AUDIT_ACTIONS, {
    description: 'user.disable / user.enable / user.promote / user.demote / user.delete (detail.servers: the servers deleted with it) / user.reset_link (an administrator made a reset link) / user.password_reset (the link was used; the actor is the account itself) / server.hide / server.show / server.update (detail.fields: the fields changed) / server.delete (by an administrator, of another account\'s server) / server.key_create / server.key_revoke (an administrator made or revoked an API key of another account\'s server; detail.prefix: the key\'s) / server.channel_set / server.channel_rotate / server.channel_remove (an administrator set, rotated the secret of, or removed a delivery target of another account\'s server; detail.channel: webhook, votifier or discord) / server.test_vote (an administrator sent a test vote to another account\'s server; detail.pseudo) / server.redeliver (an administrator sent a delivery of another account\'s server again; detail.channel, detail.pseudo) / site.backup (a backup of the database was downloaded; target.label is its file name).',
  }),
  target: t.Object({
    type: t.Union([t.Literal('user'), t.Literal('server'), t.Literal('site')]),
    id: t.String(),
    label: t.String({ description: 'The account\'s e-mail address, the server\'s name or the backup\'s file name, as it was at the time.' }),
  }),
  detail: t.Record(t.String(), t.Union([t.String(), t.Number(), t.Boolean()])),
})

export const auditJson = (e: AuditEvent): typeof AuditEntryJson.static => ({
  id: e.id, at: iso(e.at), actor: e.actor, action: e.action as AuditAction, target: e.target, detail: e.detail,
})
