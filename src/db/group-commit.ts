import type { Database, Statement } from 'bun:sqlite'
import { writeTx } from './open.ts'

// Group commit for votes. Under load most of a vote's cost is the commit itself (WAL frames for
// every page it touched, and the checkpoint fsyncs that follow), and votes that arrive together
// touch the same pages (the month counters, the tails of the same indexes). So the votes handed
// in during one turn of the event loop are written in ONE outer transaction, each write atomic:
// a refused vote fails alone, the others carry on. Nobody is answered before the outer COMMIT
// returns, so an acknowledged vote is durable exactly as with one transaction per vote; if the
// commit fails, every vote of the group fails and none was acknowledged.
//
// Two kinds of writes. A 'self' write (the default) is atomic by itself: it runs in writeTx,
// which nests as a savepoint, so when it throws it has left nothing. A 'bare' write takes no
// savepoint and lets the group keep it atomic: a savepoint costs about as much as a vote's own
// statements (SQLite copies every page it touches into a statement journal), and a refused vote
// is refused before it writes anything. So the group first runs bare writes as they are, watching
// total_changes() around each: one that throws having changed nothing needs no undoing. One that
// throws after changing something can only be undone by a savepoint: that attempt is rolled back
// whole and the group runs again, bare writes each in a savepoint this time. A bare write must
// change data only through INSERT, UPDATE and DELETE (which total_changes() counts) and must not
// mind being run again after a rollback.

export type Atomicity = 'self' | 'bare'

// A write of a group: `write` runs inside the group's transaction.
export interface GroupWrite {
  write: () => unknown
  atomicity: Atomicity
}

interface Pending extends GroupWrite {
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

export type GroupCommit = (<T>(write: () => T, atomicity?: Atomicity) => Promise<T>) & {
  // Writes handed in from now on wait until `until` settles (the WAL checkpointer catching up:
  // src/db/checkpointer.ts); they are then written as one group, as usual.
  hold(until: Promise<unknown>): void
}

// Thrown out of a first attempt to roll it back: a bare write failed after changing something.
class PartialWrite extends Error {}

const totalChanges = new WeakMap<Database, Statement>()

// Writes `group` in ONE transaction, at once, and answers each write's outcome; throws, having
// written nothing, when the transaction itself fails (its commit, a full disk). The group commit
// below runs it at the end of a turn; the vote writer's thread, for the batches it is sent
// (src/votes/writer-thread.ts).
export function writeGroup(db: Database, group: GroupWrite[]): Outcome[] {
  let statement = totalChanges.get(db)
  if (!statement) totalChanges.set(db, (statement = db.prepare('SELECT total_changes() AS n')))
  const total = statement
  const changes = () => (total.get() as { n: number }).n

  // One transaction over the group. `savepoints`: bare writes run each in a savepoint.
  const attempt = (savepoints: boolean): Outcome[] => writeTx(db, () => group.map((p): Outcome => {
    const watched = p.atomicity === 'bare' && !savepoints
    const before = watched ? changes() : 0
    try {
      return { ok: true, value: p.atomicity === 'bare' && savepoints ? writeTx(db, p.write) : p.write() }
    } catch (error) {
      // SQLite ends the whole transaction itself on some errors (a full disk, an I/O error):
      // the group's earlier writes are gone, and the next ones must not run on their own
      // outside it (each would commit alone while the group reports failure).
      if (!db.inTransaction) throw error
      if (watched && changes() !== before) throw new PartialWrite()
      return { ok: false, error }
    }
  }))

  try {
    return attempt(false)
  } catch (error) {
    if (!(error instanceof PartialWrite)) throw error
    return attempt(true)
  }
}

export function createGroupCommit(db: Database): GroupCommit {
  let pending: Pending[] = []

  let held: Promise<unknown> | null = null

  function flush() {
    if (held) {
      const until = held
      void until.then(() => {
        if (held === until) held = null
        flush()
      })
      return
    }
    const group = pending
    pending = []
    let outcomes: Outcome[]
    try {
      outcomes = writeGroup(db, group)
    } catch (error) {
      for (const p of group) p.reject(error)
      return
    }
    group.forEach((p, i) => {
      const o = outcomes[i]
      if (o.ok) p.resolve(o.value)
      else p.reject(o.error)
    })
  }

  const commit = <T>(write: () => T, atomicity: Atomicity = 'self') => new Promise<T>((resolve, reject) => {
    // setImmediate, not a microtask: requests read in the same poll of the event loop get to
    // join the group before it is written.
    if (pending.length === 0) setImmediate(flush)
    pending.push({ write, atomicity, resolve: resolve as (v: unknown) => void, reject })
  })
  return Object.assign(commit, {
    hold(until: Promise<unknown>) {
      // Settled either way, the hold ends.
      held = until.then(() => {}, () => {})
    },
  })
}
