import type { Database } from 'bun:sqlite'
import { writeTx } from '../db/open.ts'

// Group commit for votes. Under load most of a vote's cost is the commit itself (WAL frames for
// every page it touched, and the checkpoint fsyncs that follow), and votes that arrive together
// touch the same pages (the month counters, the tails of the same indexes). So the votes handed
// in during one turn of the event loop are written in ONE outer transaction, each inside its own
// savepoint (recordVote's transaction nests as a savepoint): a refused vote rolls back alone, the
// others carry on. Nobody is answered before the outer COMMIT returns, so an acknowledged vote
// is durable exactly as with one transaction per vote; if the commit fails, every vote of the
// group fails and none was acknowledged.

interface Pending {
  write: () => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

export type GroupCommit = <T>(write: () => T) => Promise<T>

export function createGroupCommit(db: Database): GroupCommit {
  let pending: Pending[] = []

  function flush() {
    const group = pending
    pending = []
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = []
    try {
      writeTx(db, () => {
        for (const p of group) {
          try {
            outcomes.push({ ok: true, value: p.write() })
          } catch (error) {
            // SQLite ends the whole transaction itself on some errors (a full disk, an I/O
            // error): the group's earlier writes are gone, and the next ones must not run on
            // their own outside it (each would commit alone while the group reports failure).
            if (!db.inTransaction) throw error
            outcomes.push({ ok: false, error })
          }
        }
      })
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

  return <T>(write: () => T) => new Promise<T>((resolve, reject) => {
    // setImmediate, not a microtask: requests read in the same poll of the event loop get to
    // join the group before it is written.
    if (pending.length === 0) setImmediate(flush)
    pending.push({ write, resolve: resolve as (v: unknown) => void, reject })
  })
}
