import type { Awaitable } from '../db/store.ts'

// The audit log: every change an administrator makes (and a password reset link's use, and each
// backup downloaded), with who made it, when, and on what. Entries are written in the same transaction as the change.

export type AuditTarget = { type: 'user' | 'server' | 'site'; id: string; label: string }

export type AuditDetail = Record<string, string | number | boolean>

export interface NewAuditEvent {
  at: number
  actor: { id: string; email: string }
  action: string
  target: AuditTarget
  detail?: AuditDetail
}

export interface AuditEvent extends NewAuditEvent {
  id: number
  detail: AuditDetail
}

export interface AuditRepo {
  insert(e: NewAuditEvent): Awaitable<void>
  // Newest first: the entries with an id below `before`.
  page(before: number, limit: number): Awaitable<AuditEvent[]>
}
