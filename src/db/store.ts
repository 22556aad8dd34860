import type { Logger } from '../log.ts'
import type { WriteGate } from './write-gate.ts'
// The seam between votelist and its database. Repositories (one per feature, the only code with
// SQL) answer through `Awaitable` results: the SQLite ones return plain values, at no cost; a
// backend whose client is asynchronous returns promises. Code above the repositories awaits their
// calls, and writes that must be atomic are transaction scripts, which the store runs.

export type Awaitable<T> = T | Promise<T>

// A transaction script: a generator that yields each repository call (through `use`) and gets
// its value back, so one script runs on every backend. SQLite steps it synchronously inside BEGIN
// IMMEDIATE … COMMIT, where an await would commit early and let another request's statements in;
// an asynchronous backend steps it inside its own transaction, awaiting each value. Scripts
// compose with `yield*`. A thrown error rolls the whole transaction back.
// (What a script is sent back is typed by `use`, hence `any` here.)
export type TxScript<T> = Generator<unknown, T, any>

// `const row = yield* use(tx.votes.recent(…))`: hands the call's result to the runner and gives
// back its value, with its type.
export function* use<T>(value: Awaitable<T>): Generator<Awaitable<T>, T, T> {
  return yield value
}

export interface WriteOptions {
  // The write may share its commit with the writes of other requests arriving at the same moment
  // (on SQLite, the votes' group commit). Such a script refuses, by throwing, before it changes
  // anything (one that throws later has the whole group run again), changes data only through
  // INSERT, UPDATE and DELETE, and may be run again from the start after a rollback.
  shared?: boolean
}

// What a store adds to its repositories: `write` runs a script atomically and resolves with its
// value once it is committed (durable). `Tx` is the repositories a script is handed.
export interface StoreWrites<Tx> {
  write<T>(script: (tx: Tx) => TxScript<T>, opts?: WriteOptions): Promise<T>
}

export interface StoreControl {
  // SQLite is used by one process at a time (serve holds an instance lock); several processes
  // may share a PostgreSQL database.
  readonly kind: 'sqlite' | 'postgres'
  // Writes a consistent snapshot of the whole database to the new file `target` (readable by its
  // owner only), while the site keeps running; resolves once the file is complete. SQLite only: a
  // PostgreSQL store refuses, its database being backed up with the server's own tools (pg_dump,
  // continuous archiving).
  backup(target: string): Promise<void>
  // While the site serves: SQLite's WAL checkpoints move to a thread of their own
  // (src/db/checkpointer.ts); null where there is nothing to move (PostgreSQL, in memory).
  // `alsoHold`: what else writes to the file (the vote writer: src/votes/writer.ts) is held back
  // with the site's grouped writes while the checkpoints catch up. `running`: the thread runs,
  // and the site's connection no longer checkpoints by itself.
  checkpointInBackground(log: Logger, alsoHold?: (until: Promise<unknown>) => void): { stop(): Promise<void>; readonly running: boolean } | null
  // SQLite: the lock the site's connection takes around its write transactions while another
  // thread writes to the file too (the vote writer: src/db/write-gate.ts); null to stop.
  shareWriteGate?(gate: WriteGate | null): void
  close(): Awaitable<void>
}

export class ScriptError extends Error {}

// Runs a script whose every step is a plain value, as SQLite's are. A promise is a programming
// error here: the transaction could not wait for it.
export function runScript<T>(script: TxScript<T>): T {
  let step = script.next()
  while (!step.done) {
    if (step.value instanceof Promise) {
      script.return(undefined as T)
      throw new ScriptError('a transaction script yielded a promise inside a synchronous transaction')
    }
    step = script.next(step.value)
  }
  return step.value
}

// Runs a script whose steps may be promises: each is awaited and its value (or its rejection,
// thrown at the yield) handed back. For a backend with an asynchronous client, inside its own
// transaction.
export async function runScriptAsync<T>(script: TxScript<T>): Promise<T> {
  let step = script.next()
  while (!step.done) {
    let value: unknown
    try {
      value = await step.value
    } catch (e) {
      step = script.throw(e)
      continue
    }
    step = script.next(value)
  }
  return step.value
}

// For hot paths: `fn` of a repository result, synchronously when it is a plain value (no
// microtask, no promise), after it resolves otherwise. `fn` may answer a promise in turn.
export function then<T, R>(value: Awaitable<T>, fn: (value: T) => Awaitable<R>): Awaitable<R> {
  return value instanceof Promise ? value.then(fn) : fn(value)
}
