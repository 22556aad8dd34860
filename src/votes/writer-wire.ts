import type { MessagePort } from 'node:worker_threads'
import { ApiError, type ErrorCode, type Reason } from '../http/errors.ts'
import type { ListingPolicy } from '../servers/repo.ts'
import type { CastVote, VoteJob } from './service.ts'

// What the site and the vote writer's thread say to each other (src/votes/writer.ts).

// Slots of the shared counters: batches sent, answers not yet read, whether the thread waits
// (asleep on SENT: only then must the site wake it, a system call), and the write lock the two
// connections share (src/db/write-gate.ts: held, and wanted by the site's thread).
export const SENT = 0
export const ANSWERED = 1
export const WAITING = 2
export const GATE = { lock: 3, wanted: 4 }
export const SLOTS = 5

// The first message, through the worker's own channel: where the database is, and the channel
// and counters the batches go through from then on. The thread answers Started.
export interface Open {
  path: string
  policy: ListingPolicy
  counters: SharedArrayBuffer
  batches: MessagePort
  outcomes: MessagePort
}
export type Started = { ready: true } | { failed: string }

// A batch of votes, through `batches`; its number is the SENT count once it is sent.
// `autocheckpoint`: the wal_autocheckpoint the thread's connection must have (0 while the
// checkpoint thread runs). `stop`: close the connection and end the loop (no votes then).
export interface Batch {
  votes: VoteJob[]
  autocheckpoint: number
  stop?: true
}

// An error as it crosses to the site: a refusal (ApiError) whole, anything else by its message and
// its code (a SQLite error's, which says a full disk), as the site's error handler logs it.
export type WireError =
  | { api: { status: number; errorCode: ErrorCode; message: string; extra: Record<string, unknown>; headers: Record<string, string>; field?: string; reason?: Reason } }
  | { message: string; code?: string }

// One vote's outcome as it crosses (src/db/group-commit.ts has its own, with the error whole).
export type VoteOutcome = { ok: true; value: CastVote } | { ok: false; error: WireError }

// The answer to a batch, through `outcomes`, in the order the batches were sent: one outcome per
// vote, once their commit returned. `due`: a delivery job was queued for now. `stopped`: the
// answer to a stop.
export interface Answer {
  outcomes: VoteOutcome[]
  due: boolean
  stopped?: true
}

export function toWire(e: unknown): WireError {
  if (e instanceof ApiError) return { api: { status: e.status, errorCode: e.errorCode, message: e.message, extra: e.extra, headers: e.headers, field: e.field, reason: e.reason } }
  const code = (e as { code?: unknown })?.code
  return { message: String((e as Error)?.message ?? e), ...(typeof code === 'string' ? { code } : {}) }
}

export function fromWire(w: WireError): Error {
  if ('api' in w) return new ApiError(w.api.status, w.api.errorCode, w.api.message, w.api.extra, w.api.headers, w.api.field, w.api.reason)
  return Object.assign(new Error(w.message), w.code ? { code: w.code } : {})
}
