import type { Database } from 'bun:sqlite'
import { backupDatabaseInWorker } from './backup.ts'
import { startCheckpointer, type Checkpointer } from './checkpointer.ts'
import { createGroupCommit } from './group-commit.ts'
import { gateWrites, writeTx } from './open.ts'
import { runScript, type StoreControl, type StoreWrites, type TxScript, type WriteOptions } from './store.ts'

export type SqliteStore<R> = R & StoreWrites<R> & StoreControl

// The store over one SQLite connection: its repositories, and scripts run synchronously in a
// transaction taken at once (BEGIN IMMEDIATE), so that concurrent writers queue on busy_timeout.
// A script has run when write() returns, and the promise only carries its outcome; a shared
// write instead joins the group commit of the moment (src/db/group-commit.ts) as a bare write.
// `beforeClose`: closes what else the repositories opened on the same file (src/db/read-batch.ts).
export function createSqliteStore<R extends object>(db: Database, repositories: R, beforeClose = () => {}): SqliteStore<R> {
  const shared = createGroupCommit(db)
  let checkpointer: Checkpointer | null = null
  return {
    ...repositories,
    kind: 'sqlite',
    write<T>(script: (tx: R) => TxScript<T>, opts: WriteOptions = {}): Promise<T> {
      const run = () => runScript(script(repositories))
      if (opts.shared) return shared(run, 'bare')
      try {
        return Promise.resolve(writeTx(db, run))
      } catch (e) {
        return Promise.reject(e)
      }
    },
    backup: (target) => backupDatabaseInWorker(db.filename, target),
    shareWriteGate: (gate) => gateWrites(db, gate),
    checkpointInBackground(log, alsoHold) {
      checkpointer = startCheckpointer(db, log, (until) => {
        shared.hold(until)
        alsoHold?.(until)
      })
      return checkpointer
    },
    close: () => {
      beforeClose()
      db.close()
      checkpointer?.release()
    },
  }
}
