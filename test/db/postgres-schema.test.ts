import { SQL } from 'bun'
import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrate, MigrationError } from '../../src/db/migrate.ts'
import { migrations, postgresMigrations } from '../../src/db/migrations.ts'
import { openDatabase } from '../../src/db/open.ts'
import { migratePostgres } from '../../src/db/postgres-migrate.ts'
import { backends, POSTGRES_ENV } from '../backends.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'

afterAll(cleanupTemp)

// The two schemas must describe the same data: a migration added to one backend only, a column
// forgotten or made nullable on one side, an index or a cascade missing on one side fails here.

interface Table {
  columns: Record<string, 'null' | 'not null'>
  indexes: string[] // those created by CREATE INDEX, not by a key or a UNIQUE constraint
  foreignKeys: string[] // "column -> table(column) on delete ACTION"
}
type Schema = Record<string, Table>

function sqliteSchema(): Schema {
  const db = openDatabase(join(tempDir(), 'v.db'))
  migrate(db)
  const schema: Schema = {}
  const tables = db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]
  for (const { name } of tables) {
    // table_xinfo, not table_info: it lists generated columns too (server.claim), as PostgreSQL's
    // catalog does.
    const columns = db.query(`PRAGMA table_xinfo("${name}")`).all() as { name: string; notnull: number; pk: number }[]
    const indexes = db.query(`PRAGMA index_list("${name}")`).all() as { name: string; origin: string }[]
    const fks = db.query(`PRAGMA foreign_key_list("${name}")`).all() as { from: string; table: string; to: string; on_delete: string }[]
    schema[name] = {
      // SQLite lets a TEXT PRIMARY KEY hold NULL (a legacy quirk) where PostgreSQL cannot; votelist
      // never writes one, so a key column counts as NOT NULL.
      columns: Object.fromEntries(columns.map((c) => [c.name, c.notnull || c.pk ? 'not null' : 'null'])),
      indexes: indexes.filter((i) => i.origin === 'c').map((i) => i.name).sort(),
      foreignKeys: fks.map((f) => `${f.from} -> ${f.table}(${f.to}) on delete ${f.on_delete.toLowerCase()}`).sort(),
    }
  }
  db.close()
  return schema
}

async function postgresSchema(pg: SQL): Promise<Schema> {
  const columns = await pg.unsafe(`SELECT table_name AS t, column_name AS c, is_nullable AS n FROM information_schema.columns
    WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`) as { t: string; c: string; n: string }[]
  const indexes = await pg.unsafe(`SELECT t.relname AS t, i.relname AS name FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
    WHERE ns.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)`) as { t: string; name: string }[]
  const fks = await pg.unsafe(`SELECT t.relname AS t, a.attname AS "from", r.relname AS "table", ra.attname AS "to",
      CASE k.confdeltype WHEN 'c' THEN 'cascade' WHEN 'a' THEN 'no action' WHEN 'r' THEN 'restrict' WHEN 'n' THEN 'set null' ELSE 'set default' END AS del
    FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
    JOIN pg_attribute ra ON ra.attrelid = k.confrelid AND ra.attnum = k.confkey[1]
    WHERE k.contype = 'f'`) as { t: string; from: string; table: string; to: string; del: string }[]
  const schema: Schema = {}
  for (const c of columns) {
    schema[c.t] ??= { columns: {}, indexes: [], foreignKeys: [] }
    schema[c.t].columns[c.c] = c.n === 'YES' ? 'null' : 'not null'
  }
  for (const i of indexes) schema[i.t].indexes.push(i.name)
  for (const f of fks) schema[f.t].foreignKeys.push(`${f.from} -> ${f.table}(${f.to}) on delete ${f.del}`)
  for (const t of Object.values(schema)) {
    t.indexes.sort()
    t.foreignKeys.sort()
  }
  return schema
}

describe('PostgreSQL migrations', () => {
  test('the embedded list is exactly migrations/postgres/, same names, same text', () => {
    const folder = join(import.meta.dir, '../../migrations/postgres')
    const files = readdirSync(folder).filter((f) => f.endsWith('.sql')).sort()
    expect(postgresMigrations.map((m) => `${m.name}.sql`)).toEqual(files)
    for (const m of postgresMigrations) expect(m.sql).toBe(readFileSync(join(folder, `${m.name}.sql`), 'utf8'))
  })

  test('every SQLite migration has its PostgreSQL twin under the same name', () => {
    expect(postgresMigrations.map((m) => m.name)).toEqual(migrations.map((m) => m.name))
  })
})

describe.if(backends.includes('postgres'))('PostgreSQL migrations on a real server', () => {
  const base = process.env[POSTGRES_ENV]!
  const admin = () => new SQL({ url: `${base}/postgres`, max: 1 })

  async function emptyDatabase(name: string) {
    const a = admin()
    await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await a.unsafe(`CREATE DATABASE ${name}`)
    await a.close()
    return new SQL({ url: `${base}/${name}`, max: 4 })
  }
  async function dropDatabase(pg: SQL, name: string) {
    await pg.close()
    const a = admin()
    await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await a.close()
  }

  test('both backends have the same tables, columns (and their nullability), indexes and foreign keys with their cascades', async () => {
    const name = `schema_${process.pid}`
    const pg = await emptyDatabase(name)
    try {
      await migratePostgres(pg)
      expect(await postgresSchema(pg)).toEqual(sqliteSchema())
    } finally {
      await dropDatabase(pg, name)
    }
  })

  test('instances starting together migrate once: the others wait on the lock and find nothing to do', async () => {
    const name = `together_${process.pid}`
    const pg = await emptyDatabase(name)
    try {
      const results = await Promise.all([1, 2, 3, 4].map(() => migratePostgres(pg)))
      expect(results.filter((r) => r.length === postgresMigrations.length)).toHaveLength(1)
      expect(results.filter((r) => r.length === 0)).toHaveLength(3)
      const recorded = await pg.unsafe('SELECT name FROM schema_migration ORDER BY name') as { name: string }[]
      expect(recorded.map((r) => r.name)).toEqual(postgresMigrations.map((m) => m.name))
      // The lock is given back: nothing holds it after the runs.
      expect(await pg.unsafe("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'")).toEqual([{ n: 0 }])
      // The secret is 64 hex digits, and a second database gets another one.
      const [{ value }] = await pg.unsafe("SELECT value FROM setting WHERE key = 'secret'") as { value: string }[]
      expect(value).toMatch(/^[0-9a-f]{64}$/)
    } finally {
      await dropDatabase(pg, name)
    }
  })

  test('a failing migration rolls back alone, and a database migrated by a newer version is refused', async () => {
    const name = `failing_${process.pid}`
    const pg = await emptyDatabase(name)
    try {
      const list = [
        { name: '0001_a', sql: 'CREATE TABLE a (x integer); INSERT INTO a VALUES (1);' },
        { name: '0002_b', sql: 'CREATE TABLE b (x integer); INSERT INTO nowhere VALUES (1);' },
      ]
      await expect(migratePostgres(pg, list)).rejects.toThrow('migration 0002_b failed: relation "nowhere" does not exist')
      const tables = await pg.unsafe("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1") as { t: string }[]
      expect(tables.map((r) => r.t)).toEqual(['a', 'schema_migration'])
      await expect(migratePostgres(pg, [])).rejects.toBeInstanceOf(MigrationError)
      await expect(migratePostgres(pg, [])).rejects.toThrow('(0001_a): it was used by a newer version')
    } finally {
      await dropDatabase(pg, name)
    }
  })
})
