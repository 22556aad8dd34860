import type { Database } from 'bun:sqlite'
import { migrations as embedded, type Migration } from './migrations.ts'
import { instanceLockHeld } from './instance-lock.ts'
import { StorageError, storageFault } from './storage-error.ts'

export class MigrationError extends Error {}

// Applies, in name order, every migration not yet recorded, with its record. Returns the names
// applied.
export function migrate(db: Database, list: readonly Migration[] = embedded, now = Date.now()): string[] {
  try {
    db.run(`CREATE TABLE IF NOT EXISTS schema_migration (
      name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL) WITHOUT ROWID`)
    probeWrite(db)
  } catch (e) {
    throw storageFault(e, db.filename, 'checking that it can be written')
  }
  const done = (db.query('SELECT name FROM schema_migration').all() as { name: string }[]).map((r) => r.name)
  const record = db.prepare('INSERT INTO schema_migration (name, applied_at) VALUES (?, ?)')
  const apply = (m: Migration) => {
    db.run(m.sql)
    record.run(m.name, now)
  }
  const pending = pendingMigrations(list, done)
  if (pending.length > 1 && applyTogether(db, pending, apply)) return pending.map((m) => m.name)
  const applied: string[] = []
  for (const m of pending) {
    try {
      db.transaction(() => apply(m)).immediate()
    } catch (e) {
      const fault = storageFault(e, db.filename, `applying migration ${m.name}`)
      throw fault instanceof StorageError ? fault : new MigrationError(`migration ${m.name} failed: ${(e as Error).message}`)
    }
    applied.push(m.name)
  }
  return applied
}

// Several migrations pending (a new database takes them all): one transaction for them, a commit
// where there were a dozen (a first start spent about a third of its migrating time committing).
// False when that transaction failed, leaving nothing applied: the caller then applies them one
// transaction each, so that the one that cannot be applied (a full disk, an error in it) is found
// and named, and those before it stay applied, as they always did.
function applyTogether(db: Database, pending: readonly Migration[], apply: (m: Migration) => void): boolean {
  try {
    db.transaction(() => pending.forEach(apply)).immediate()
    return true
  } catch {
    return false
  }
}

// The migrations of `list` not in `done` (the names a database records), in name order. A
// database that records a migration this build does not know was written by a newer votelist:
// refuse to run rather than guess.
export function pendingMigrations(list: readonly Migration[], done: readonly string[]): Migration[] {
  const known = new Set(list.map((m) => m.name))
  const unknown = done.filter((n) => !known.has(n))
  if (unknown.length) {
    throw new MigrationError(`the database has migrations this votelist does not know (${unknown.join(', ')}): it was used by a newer version`)
  }
  const applied = new Set(done)
  // Code-unit order, which for these ASCII names is the order localeCompare gives, without
  // loading ICU's collator at every start (some 2 MB of memory for the life of the process).
  return [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).filter((m) => !applied.has(m.name))
}

// Whoever migrates goes on to write. SQLite opens a database it may not write read-only without
// a word, and an up-to-date one needs no write to migrate: write the header once, in a
// transaction rolled back, so that a read-only database is refused at start, not at the first vote.
function probeWrite(db: Database) {
  if (db.filename === ':memory:' || db.filename === '') return
  db.run('BEGIN IMMEDIATE')
  try {
    const { user_version: version } = db.query('PRAGMA user_version').get() as { user_version: number }
    db.run(`PRAGMA user_version = ${version}`)
  } finally {
    db.run('ROLLBACK')
  }
}

// For a command run beside the site (user add, migrate…), before it migrates: a serve running on
// the database that lacks migrations is an older version (or this one, migrating as it starts),
// which would go on writing with its code to the newer schema (and then refuse to start again).
// serve keeps a newer serve off with its lock; this keeps the other commands of a newer version
// off in the same way.
export function refuseMigratingUnderServe(db: Database, path: string, list: readonly Migration[] = embedded): void {
  const found = db.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migration'`).get()
  const done = found ? (db.query('SELECT name FROM schema_migration').all() as { name: string }[]).map((r) => r.name) : []
  const pending = pendingMigrations(list, done)
  if (!pending.length || !instanceLockHeld(path)) return
  throw new MigrationError(`a votelist serve is running on ${path} and the database lacks ${pending.map((m) => m.name).join(', ')}: the serve is an older version (or this one still migrating as it starts), and this command would migrate the database under it; restart the service with this version (it migrates the database as it starts), then run the command again`)
}
