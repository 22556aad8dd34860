import { pendingMigrations, MigrationError } from './migrate.ts'
import { postgresMigrations, type Migration } from './migrations.ts'
import type { Pg } from './postgres-client.ts'

// The key of the advisory lock that migrations run under (an arbitrary constant: "votelist" in
// ASCII, as an int8). Instances that start together queue on it, and the first one migrates: the
// others then find nothing left to apply.
export const MIGRATION_LOCK = 0x766f74656c697374n

// Applies, in name order, every migration the database does not record, each in its own
// transaction with its record, under a session advisory lock held by one dedicated connection.
// Returns the names applied. A database that records a migration this build does not know was
// written by a newer votelist: refused, as on SQLite.
export async function migratePostgres(pg: Pg, list: readonly Migration[] = postgresMigrations, now = Date.now()): Promise<string[]> {
  const conn = await pg.reserve()
  // Handed back to the pool only unlocked and with its statement_timeout back.
  let clean = false
  try {
    // Neither the wait for another instance's migration nor a migration itself is bounded by
    // database.statement_timeout (a request's or a job's limit): a migration over a large table
    // takes as long as it takes, and an instance started meanwhile waits for it. The pool's value
    // comes back (RESET) before the connection is handed back.
    await conn.unsafe('SET statement_timeout = 0')
    await conn.unsafe('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    try {
      const applied: string[] = []
      for (const m of await pending(conn, list)) {
        await conn.begin((tx) => apply(tx, m, now))
        applied.push(m.name)
      }
      return applied
    } finally {
      // A session lock lives as long as its connection: one that could not be unlocked (or whose
      // timeout could not be set back) is closed, never handed back to the pool as it is.
      await conn.unsafe('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).then(() => conn.unsafe('RESET statement_timeout')).then(() => { clean = true }, () => {})
    }
  } finally {
    if (clean) conn.release()
    else await conn.close()
  }
}

// Every pending migration inside the transaction `tx` the caller holds, which commits them with
// its own work or rolls them back with it (db copy: a copy that fails leaves the database as empty
// as it found it, tables included). The advisory lock is the transaction's.
export async function migratePostgresInTransaction(tx: Pg, list: readonly Migration[] = postgresMigrations, now = Date.now()): Promise<string[]> {
  await tx.unsafe('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
  const applied: string[] = []
  for (const m of await pending(tx, list)) {
    await apply(tx, m, now)
    applied.push(m.name)
  }
  return applied
}

async function pending(pg: Pg, list: readonly Migration[]): Promise<Migration[]> {
  await pg.unsafe('CREATE TABLE IF NOT EXISTS schema_migration (name text PRIMARY KEY, applied_at bigint NOT NULL)')
  const done = ((await pg.unsafe('SELECT name FROM schema_migration')) as { name: string }[]).map((r) => r.name)
  return pendingMigrations(list, done)
}

// One migration with its record, in the transaction `tx`.
async function apply(tx: Pg, m: Migration, now: number): Promise<void> {
  try {
    // Without parameters, a text of several statements runs as one simple query.
    await tx.unsafe(m.sql).simple()
    await tx.unsafe('INSERT INTO schema_migration (name, applied_at) VALUES ($1, $2)', [m.name, now])
  } catch (e) {
    throw new MigrationError(`migration ${m.name} failed: ${(e as Error).message}`)
  }
}
