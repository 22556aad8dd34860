import { Database, type SQLQueryBindings } from 'bun:sqlite'
import { BUSY_TIMEOUT_MS, onBeforeWrite } from './open.ts'

// Hot reads, batched per turn of the event loop on a connection of their own. On SQLite in WAL
// mode every read outside a transaction takes and drops a read lock of the WAL index (two fcntl
// calls): about 5 µs on a small VM, a tenth of what a plugin's vote check costs in all. The checks
// answered in one turn of the event loop (wrk's or a busy list's plugins: dozens) instead share one
// read transaction on a read-only connection, ended when the turn ends.
//
// What such a read sees is what a read of its own would see, or what was committed at the start
// of the turn, by a request that came in the same turn (concurrent with it). Never older than a
// write this process committed before the read: the site's connection's total_changes() is read
// at every read (a statement that touches no table, so takes no lock), and a change starts a new
// read transaction. Inside a transaction of the site's connection (a write script reading what it
// is about to change) the read is the site's connection's own, as without batching. Votes are
// written by their own thread's connection (src/votes/writer.ts), which total_changes() does not
// count: a vote answered during a turn may be missed by that turn's reads begun before its commit,
// reads that came in while it was being written; the next turn's reads see it.
// A write transaction of the site's connection (writeTx) ends the batch's read transaction before
// it begins: SQLite starts a fully checkpointed WAL over at a write only when no reader is left on
// its frames, and the checkpointer's catch-up counts on that (src/db/checkpointer.ts).

type Bindings = SQLQueryBindings[]

export interface BatchedRead {
  get(...args: Bindings): unknown
}

export interface ReadBatches {
  prepare(sql: string): BatchedRead
  close(): void
}

export function readBatches(db: Database): ReadBatches {
  // An in-memory database has no second connection: its reads stay on the site's.
  const shared = db.filename !== '' && db.filename !== ':memory:'
  const changes = db.prepare('SELECT total_changes() AS n')
  let reader: Database | null = null
  let begin: ReturnType<Database['prepare']> | null = null
  let commit: ReturnType<Database['prepare']> | null = null
  let open = false
  let seen = -1
  let scheduled = false

  const release = () => {
    if (open) {
      open = false
      commit!.run()
    }
  }
  const end = () => {
    scheduled = false
    release()
  }
  if (shared) onBeforeWrite(db, release)

  // The reader, in a read transaction that has seen every change of the site's connection.
  const ready = (): Database => {
    if (!reader) {
      reader = new Database(db.filename, { readonly: true, strict: true })
      reader.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
      begin = reader.prepare('BEGIN')
      commit = reader.prepare('COMMIT')
    }
    const now = (changes.get() as { n: number }).n
    if (open && now === seen) return reader
    release()
    begin!.run()
    open = true
    seen = now
    if (!scheduled) {
      scheduled = true
      setImmediate(end)
    }
    return reader
  }

  return {
    prepare(sql) {
      const own = db.prepare(sql)
      let batched: ReturnType<Database['prepare']> | null = null
      return {
        get(...args) {
          if (!shared || db.inTransaction) return own.get(...args)
          const r = ready()
          batched ??= r.prepare(sql)
          return batched.get(...args)
        },
      }
    },
    close() {
      release()
      reader?.close()
      reader = null
    },
  }
}
