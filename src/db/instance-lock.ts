import { Database } from 'bun:sqlite'
import { dirname } from '../file-path.ts'
import { nodeFs } from '../lazy-modules.ts'
import { runAs } from './owner-guard.ts'
import { StorageError, storageFault } from './storage-error.ts'

export class InstanceLockError extends Error {}

// One `serve` per database: at start-up the job queue re-runs every leased job, which is only
// right when no other process is working on them. The lock is an exclusive SQLite lock on a
// side file, held for the life of the connection; the kernel drops it when the process dies,
// even on kill -9, so a crash never leaves a stale lock behind.
//
// `abandon()` is for a start that fails before it used the database (database.path names a
// folder): it also deletes the lock file if this call created it, so the failed start leaves
// nothing behind. The file is deleted while still locked: a second serve that opened it meanwhile
// fails to lock it, one that comes after creates a new one.
export function acquireInstanceLock(databasePath: string): { release(): void; abandon(): void } {
  if (databasePath === ':memory:') return { release() {}, abandon() {} }
  const path = `${databasePath}.lock`
  let db: Database
  let created: boolean
  try {
    ({ db, created } = openLockFile(path))
  } catch (e) {
    throw storageFault(e, databasePath, `creating ${path}`)
  }
  try {
    db.run('PRAGMA busy_timeout = 0')
    // The file holds nothing but the lock: taking it needs no journal file and no sync. (With the
    // defaults, a first start created, synced and deleted a journal for it: five fsyncs. OFF is
    // refused by Bun's SQLite, which runs in defensive mode; MEMORY keeps the journal in memory.)
    db.run('PRAGMA journal_mode = MEMORY')
    db.run('PRAGMA synchronous = OFF')
    db.run('PRAGMA locking_mode = EXCLUSIVE')
    db.run('BEGIN EXCLUSIVE')
  } catch (e) {
    db.close()
    throw new InstanceLockError(`another votelist serve is using ${databasePath} (${path} is locked: ${(e as Error).message})`)
  }
  try {
    // A write, so that the lock is a writer's: SQLite opens a file its user may not write
    // read-only without a word, and a read-only connection only ever holds a shared lock, which
    // every other serve would share.
    db.run('PRAGMA user_version = 1')
    db.run('COMMIT')
  } catch (e) {
    db.close()
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && code.startsWith('SQLITE_READONLY')) {
      throw new StorageError(`the instance lock ${path} is read-only for ${runAs()}, so it cannot keep a second votelist serve off this database: delete it while no votelist serve runs, or make it writable by that user (a votelist serve run as another user, such as root, leaves it behind)`, 'permission')
    }
    throw storageFault(e, databasePath, `taking the instance lock ${path}`)
  }
  return {
    release: () => db.close(),
    abandon() {
      if (created) nodeFs().rmSync(path, { force: true })
      db.close()
    },
  }
}

// Whether a serve (of any version) holds the instance lock of `databasePath` now. A read of the
// lock file is refused while a serve holds its exclusive lock; the file is never created here.
export function instanceLockHeld(databasePath: string): boolean {
  if (databasePath === ':memory:') return false
  let db: Database
  try {
    db = new Database(`${databasePath}.lock`, { readonly: true })
  } catch {
    return false
  }
  try {
    db.run('PRAGMA busy_timeout = 0')
    db.query('PRAGMA user_version').get()
    return false
  } catch {
    return true
  } finally {
    db.close()
  }
}

// The lock is taken before the database is opened (serve: a second one must not write to a
// database another one uses, not even to migrate it), so on a first start the data folder is
// created here, as src/db/open.ts would create it: its user's alone. Whether the file was there is
// told by SQLite's own open, not by node:fs (src/lazy-modules.ts: it would cost every start).
function openLockFile(path: string): { db: Database; created: boolean } {
  try {
    return { db: new Database(path, { readwrite: true, create: false }), created: false }
  } catch {
    // Not there (or not openable: the creation below says why).
  }
  try {
    return { db: new Database(path, { create: true }), created: true }
  } catch {
    nodeFs().mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    return { db: new Database(path, { create: true }), created: true }
  }
}
