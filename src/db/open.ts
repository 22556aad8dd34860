import { Database } from 'bun:sqlite'
import { dirname } from '../file-path.ts'
import { nodeFs } from '../lazy-modules.ts'
import { storageFault } from './storage-error.ts'
import type { WriteGate } from './write-gate.ts'

// A data folder that cannot be created or written, a read-only database or a full disk fail here
// as a StorageError that says what and where. The data folder and the file are created when SQLite
// cannot open an existing database (the first start), not looked for at every start.
export function openDatabase(path: string): Database {
  let db: Database | null = null
  try {
    db = openFile(path)
    configure(db)
    return db
  } catch (e) {
    db?.close()
    throw storageFault(e, path)
  }
}

function openFile(path: string): Database {
  if (path === ':memory:') return new Database(path, { create: true, strict: true })
  try {
    return new Database(path, { readwrite: true, create: false, strict: true })
  } catch {
    createPrivately(path)
    return new Database(path, { create: true, strict: true })
  }
}

// A new database, and the data folder if missing, readable by their user only: the database holds
// the password hashes and the site's secret (which signs sessions), and SQLite would create it
// with the mode the umask leaves (a shell's 022: readable by every user of the machine). SQLite
// gives the -wal and -shm files the database's own mode, and takes an empty file for a new
// database. Whatever fails here (a folder in the way, one that may not be written) is left to
// SQLite's own open, whose error says what is wrong.
function createPrivately(path: string) {
  const fs = nodeFs()
  fs.mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  try {
    fs.closeSync(fs.openSync(path, 'wx', 0o600))
  } catch {
    // EEXIST (a file made meanwhile, or a folder), EACCES…: SQLite's open says.
  }
}

// Versions before 2026-11-28 let SQLite create the database with the umask's mode: from a shell
// (022) every user of the machine can read the password hashes and the site's secret. Called
// when an upgrade has migrated the database (never at an ordinary start, which makes no extra
// system call): the file, its -wal and -shm (given its mode by SQLite) are closed to other users.
// The owner's and the group's rights stay as they are: a group may have been given access on
// purpose (a backup tool's). A file this user may not change (another user's) is left as it is.
export function closeToOthers(path: string): void {
  if (path === ':memory:' || path === '') return
  const fs = nodeFs()
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      const mode = fs.statSync(file).mode & 0o7777
      if (mode & 0o007) fs.chmodSync(file, mode & ~0o007)
    } catch {
      // No -wal or -shm, or not this user's file.
    }
  }
}

// How long a connection waits for another's write lock before SQLITE_BUSY, on every connection
// the site opens to its file (the worker threads' too).
export const BUSY_TIMEOUT_MS = 5000

// bun:sqlite defaults to a rollback journal, synchronous=FULL, no busy timeout and foreign keys
// off; votelist needs the opposite on every connection.
function configure(db: Database) {
  db.run('PRAGMA journal_mode = WAL')
  db.run('PRAGMA synchronous = NORMAL')
  db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  db.run('PRAGMA foreign_keys = ON')
  // Statement journals in memory. Every vote of a group commit runs in its own savepoint, and
  // SQLite keeps the original of each page a savepoint touches in a statement journal; with the
  // default (a temporary file) that was some twenty write() calls per vote. The statement journal
  // only serves rolling back inside a live transaction — crash recovery is the WAL's — so keeping
  // it in memory changes nothing in durability. Temporary tables and sorts spilling past the page
  // cache stay in memory too; votelist's queries are indexed and paged, so those stay small.
  db.run('PRAGMA temp_store = MEMORY')
}

type Call = <T>(fn: () => T) => T
// One transaction wrapper per connection, taking the work as its argument: db.transaction()
// builds a new wrapper (and its properties) at every call, a measurable cost on the vote path.
const wrappers = new WeakMap<Database, Call>()

// What must happen before a write transaction begins on a connection: src/db/read-batch.ts ends
// its read transaction there, since SQLite only starts a fully checkpointed WAL over at a write
// when no reader is left on its frames.
const beforeWrite = new WeakMap<Database, () => void>()
export function onBeforeWrite(db: Database, fn: () => void): void {
  beforeWrite.set(db, fn)
}

// Runs `fn` in a write transaction taken at once (BEGIN IMMEDIATE), so concurrent writers queue
// on busy_timeout instead of failing on lock upgrade. Inside another transaction it runs as a
// savepoint. `fn` must be synchronous: a bun:sqlite transaction commits at the first await.
export function writeTx<T>(db: Database, fn: () => T): T {
  let call = wrappers.get(db)
  if (!call) {
    call = db.transaction((work: () => unknown) => work()).immediate as Call
    wrappers.set(db, call)
  }
  if (db.inTransaction) return call(fn)
  beforeWrite.get(db)?.()
  const gate = gates.get(db)
  if (!gate) return call(fn)
  const taken = gate.enter()
  try {
    return call(fn)
  } finally {
    gate.leave(taken)
  }
}

// The lock a connection shares with another thread's connection to the same file, taken around
// each of its write transactions (src/db/write-gate.ts); null: none.
const gates = new WeakMap<Database, WriteGate>()
export function gateWrites(db: Database, gate: WriteGate | null): void {
  if (gate) gates.set(db, gate)
  else gates.delete(db)
}
