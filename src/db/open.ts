import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

// bun:sqlite defaults to a rollback journal, synchronous=FULL, no busy timeout and foreign keys
// off; votelist needs the opposite on every connection.
export function openDatabase(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path, { create: true, strict: true })
  db.run('PRAGMA journal_mode = WAL')
  db.run('PRAGMA synchronous = NORMAL')
  db.run('PRAGMA busy_timeout = 5000')
  db.run('PRAGMA foreign_keys = ON')
  return db
}

// Runs `fn` in a write transaction taken at once (BEGIN IMMEDIATE), so concurrent writers queue
// on busy_timeout instead of failing on lock upgrade. `fn` must be synchronous: a bun:sqlite
// transaction commits at the first await.
export function writeTx<T>(db: Database, fn: () => T): T {
  return db.transaction(fn).immediate()
}
