import type { Database } from 'bun:sqlite'
import { migrate, refuseMigratingUnderServe } from './migrate.ts'
import { openDatabase } from './open.ts'
import { connectPostgres, postgresFault, rows, sendable, type Pg } from './postgres-client.ts'
import { migratePostgresInTransaction } from './postgres-migrate.ts'

export class CopyError extends Error {}

// What instances share (limit counters, task claims) and the pages' listing version (a counter
// each database keeps by itself) are not the site's data: never copied.
const NOT_DATA = new Set(['schema_migration', 'rate_limit', 'task_run', 'listing_version'])
// Rows a batch sends at most, as $n parameters (PostgreSQL takes at most 65,535 per statement).
const MAX_PARAMETERS = 30_000

export interface CopiedTable {
  table: string
  rows: number
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

// Copies the site's data from the SQLite file at `path` into the empty PostgreSQL database at
// `url`: in one transaction, migrates it and copies every table in the order of their foreign
// keys, checks that each holds as many rows as the source, and commits only then. The source is
// read from one snapshot, so a site that keeps running while it is copied is copied as it was at
// the start. `label`: the target's address without its password, for messages.
export async function copySqliteToPostgres(path: string, url: string, label: string): Promise<CopiedTable[]> {
  const source = openDatabase(path)
  const pg = connectPostgres({ url, poolSize: 2, statementTimeoutMs: 0 })
  try {
    refuseMigratingUnderServe(source, path)
    migrate(source)
    const present = await rows<{ name: string }>(pg, "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")
      .catch((e) => { throw postgresFault(e, label, '--to') })
    if (present.length) {
      const names = present.map((t) => t.name)
      throw new CopyError(`the database at ${label} is not empty (tables: ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}): db copy writes only into an empty database; create a new one (CREATE DATABASE) and give its URL`)
    }
    source.run('BEGIN') // one snapshot of the source for every table
    try {
      // The schema and the rows in one transaction: a copy that fails leaves the database empty,
      // ready for the next try.
      return await pg.begin(async (tx) => {
        await migratePostgresInTransaction(tx)
        return copyTables(source, tx)
      })
    } finally {
      source.run('COMMIT')
    }
  } finally {
    source.close()
    await pg.close()
  }
}

async function copyTables(source: Database, tx: Pg): Promise<CopiedTable[]> {
  const tables = (source.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[])
    .map((t) => t.name).filter((t) => !NOT_DATA.has(t))
  // A table added to the SQLite file by hand or by another tool: the migrated target has no place
  // for its rows (the statements below would fail on a relation that does not exist).
  const schema = new Set((await rows<{ name: string }>(tx, "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'")).map((t) => t.name))
  const foreign = tables.filter((t) => !schema.has(t))
  if (foreign.length) {
    const [them, are, it] = foreign.length === 1 ? [`table ${foreign[0]}`, 'is', 'it'] : [`tables ${foreign.join(', ')}`, 'are', 'them']
    throw new CopyError(`${them} of the SQLite file ${are} not in votelist's PostgreSQL schema (${foreign.length === 1 ? 'it was' : 'they were'} not made by votelist): drop ${it} from the SQLite file (DROP TABLE ${foreign.join(', ')}, after a votelist backup if you need ${foreign.length === 1 ? 'its' : 'their'} rows), or copy ${it} yourself once the copy is done; nothing was written, the database is still empty`)
  }
  const copied: CopiedTable[] = []
  for (const table of await foreignKeyOrder(tx, tables)) {
    // A generated column (server.claim) is computed by each database from the row, never copied.
    const columns = await rows<{ name: string; type: string }>(tx, `SELECT column_name AS name, data_type AS type FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`, [table])
    // The migrations' own rows (the new database's secret) give way to the site's.
    await tx.unsafe(`DELETE FROM ${quote(table)}`)
    const names = columns.map((c) => quote(c.name)).join(', ')
    const perBatch = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length))
    let batch: unknown[][] = []
    // U+0000, which PostgreSQL text cannot hold, goes as U+FFFD (src/db/postgres-client.ts).
    const flush = async () => {
      if (!batch.length) return
      const values = batch.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ')
      try {
        await tx.unsafe(`INSERT INTO ${quote(table)} (${names}) VALUES ${values}`, sendable(batch.flat()))
      } catch (e) {
        // The server's refusal of a value (it carries its SQLSTATE); a lost connection goes as it is.
        if (typeof (e as { errno?: unknown }).errno !== 'string') throw e
        throw new CopyError(`table ${table}: PostgreSQL refused a row (${(e as Error).message}); nothing was written, the database is still empty`)
      }
      batch = []
    }
    const read = source.query(`SELECT ${names} FROM ${quote(table)}`)
    for (const row of read.iterate() as Iterable<Record<string, unknown>>) {
      batch.push(columns.map((c) => (c.type === 'bytea' && row[c.name] instanceof Uint8Array ? Buffer.from(row[c.name] as Uint8Array) : row[c.name])))
      if (batch.length >= perBatch) await flush()
    }
    await flush()
    const expected = (source.query(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number }).n
    const [{ n }] = await rows<{ n: number }>(tx, `SELECT count(*) AS n FROM ${quote(table)}`)
    if (n !== expected) throw new CopyError(`table ${table}: ${expected} rows in the SQLite file, ${n} copied; nothing was written`)
    copied.push({ table, rows: n })
  }
  // Identity columns go on after the highest copied value.
  const identities = await rows<{ table: string; column: string }>(tx, `SELECT table_name AS "table", column_name AS "column"
    FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES'`)
  for (const { table, column } of identities) {
    await tx.unsafe(`SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(${quote(column)}), 0) + 1, false) FROM ${quote(table)}`, [quote(table), column])
  }
  return copied
}

// `tables` with every table after those its foreign keys point to.
async function foreignKeyOrder(tx: Pg, tables: string[]): Promise<string[]> {
  const keys = await rows<{ child: string; parent: string }>(tx, `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid WHERE k.contype = 'f' AND c.oid <> p.oid`)
  const ordered: string[] = []
  const visit = (table: string, path: string[]) => {
    if (ordered.includes(table)) return
    if (path.includes(table)) throw new CopyError(`foreign keys go round in a circle through ${table}`)
    for (const k of keys) if (k.child === table && tables.includes(k.parent)) visit(k.parent, [...path, table])
    ordered.push(table)
  }
  for (const t of [...tables].sort()) visit(t, [])
  return ordered
}
