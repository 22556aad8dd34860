import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrate, MigrationError } from '../../src/db/migrate.ts'
import { migrations } from '../../src/db/migrations.ts'
import { openDatabase } from '../../src/db/open.ts'
import { stepSql } from '../../src/servers/purge-sql.ts'
import { sqliteStore } from '../../src/store.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'

afterAll(cleanupTemp)
const folder = join(import.meta.dir, '../../migrations')

describe('migrations', () => {
  test('the embedded list is exactly the migrations folder, same names, same text, in order', () => {
    const files = readdirSync(folder).filter((f) => f.endsWith('.sql')).sort()
    expect(files.every((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))).toBe(true)
    expect(migrations.map((m) => `${m.name}.sql`)).toEqual(files)
    for (const m of migrations) expect(m.sql).toBe(readFileSync(join(folder, `${m.name}.sql`), 'utf8'))
  })

  test('open sets WAL, synchronous=NORMAL, a busy timeout and foreign keys on', () => {
    const db = openDatabase(join(tempDir(), 'sub/dir/v.db'))
    expect(db.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    expect(db.query('PRAGMA synchronous').get()).toEqual({ synchronous: 1 })
    expect((db.query('PRAGMA busy_timeout').get() as { timeout: number }).timeout).toBeGreaterThanOrEqual(1000)
    expect(db.query('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 })
    db.close()
  })

  test('applies every migration once, records it, and is a no-op the second time', () => {
    const path = join(tempDir(), 'v.db')
    const db = openDatabase(path)
    expect(migrate(db)).toEqual(migrations.map((m) => m.name))
    expect(migrate(db)).toEqual([])
    const recorded = db.query('SELECT name FROM schema_migration ORDER BY name').all() as { name: string }[]
    expect(recorded.map((r) => r.name)).toEqual(migrations.map((m) => m.name))
    expect(db.query('PRAGMA foreign_key_check').all()).toEqual([])
    db.close()
  })

  test('a new database takes all its migrations in one commit', () => {
    const path = join(tempDir(), 'v.db')
    const db = openDatabase(path)
    migrate(db)
    // Commit frames of the WAL: a frame header (24 bytes, after the file's 32) whose second
    // field, the database size after the commit, is not zero. The first commit creates
    // schema_migration; the second must be every migration with its record.
    const wal = readFileSync(`${path}-wal`)
    const frame = 24 + wal.readUInt32BE(8)
    let commits = 0
    for (let at = 32; at + frame <= wal.length; at += frame) if (wal.readUInt32BE(at + 4) !== 0) commits++
    expect(commits).toBe(2)
    expect(migrate(db)).toEqual([])
    db.close()
  })

  test('a failing migration rolls back alone: earlier ones stay, its changes and record do not', () => {
    const db = new Database(':memory:')
    const list = [
      { name: '0001_a', sql: 'CREATE TABLE a (x INTEGER);' },
      { name: '0002_b', sql: 'CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);' },
    ]
    expect(() => migrate(db, list)).toThrow(MigrationError)
    const tables = (db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name)
    expect(tables).toEqual(['a', 'schema_migration'])
    expect(db.query('SELECT name FROM schema_migration').all()).toEqual([{ name: '0001_a' }])
  })

  test('a database migrated by a newer version is refused', () => {
    const db = new Database(':memory:')
    migrate(db, [{ name: '0001_a', sql: 'CREATE TABLE a (x INTEGER);' }, { name: '0002_b', sql: 'CREATE TABLE b (x INTEGER);' }])
    expect(() => migrate(db, [{ name: '0001_a', sql: 'CREATE TABLE a (x INTEGER);' }])).toThrow('0002_b')
  })

  test('every foreign key column is the leading column of an index', () => {
    const db = openDatabase(join(tempDir(), 'v.db'))
    migrate(db)
    const tables = (db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((r) => r.name)
    const missing: string[] = []
    for (const table of tables) {
      const fks = db.query(`PRAGMA foreign_key_list(${table})`).all() as { from: string }[]
      const leading = new Set<string>()
      const pk = (db.query(`PRAGMA table_info(${table})`).all() as { name: string; pk: number }[]).find((c) => c.pk === 1)
      if (pk) leading.add(pk.name)
      for (const idx of db.query(`PRAGMA index_list(${table})`).all() as { name: string }[]) {
        const cols = db.query(`PRAGMA index_info(${idx.name})`).all() as { seqno: number; name: string }[]
        const first = cols.find((c) => c.seqno === 0)
        if (first) leading.add(first.name)
      }
      for (const fk of fks) if (!leading.has(fk.from)) missing.push(`${table}.${fk.from}`)
    }
    expect(missing).toEqual([])
    db.close()
  })
})

describe('0076: delivery built again to take the discord channel', () => {
  test('deliveries and attempts are kept, attempt ids go on from the old counter, the cascade still holds', () => {
    const db = openDatabase(join(tempDir(), 'v.db'))
    migrate(db, migrations.filter((m) => m.name < '0076'))
    db.run(`INSERT INTO user (id, email, email_key, password_hash, created_at) VALUES ('u', 'a@example.com', 'a@example.com', 'x', 1)`)
    db.run(`INSERT INTO server (id, owner_id, slug, name, host, created_at, updated_at) VALUES ('s', 'u', 's', 'S', 'play.example.com', 1, 1)`)
    db.run(`INSERT INTO delivery (id, server_id, channel, pseudo, payload, status, attempts, created_at, updated_at, series_start) VALUES ('d', 's', 'webhook', 'Steve', '{"a":1}', 'failed', 5, 1, 2, 4)`)
    for (let i = 1; i <= 5; i++) db.run(`INSERT INTO delivery_attempt (delivery_id, server_id, attempt, status, error, started_at, series_start) VALUES ('d', 's', ${i}, 'failed', 'e${i}', ${i}, ${i < 4 ? 1 : 4})`)
    db.run('DELETE FROM delivery_attempt WHERE attempt = 5') // the counter stays at 5
    const before = db.query('SELECT * FROM delivery_attempt ORDER BY id').all()
    expect(migrate(db)).toEqual(migrations.filter((m) => m.name >= '0076').map((m) => m.name))
    expect(db.query('SELECT id, channel, payload, status, attempts, series_start AS s FROM delivery').all()).toEqual([{ id: 'd', channel: 'webhook', payload: '{"a":1}', status: 'failed', attempts: 5, s: 4 }])
    expect(db.query('SELECT * FROM delivery_attempt ORDER BY id').all()).toEqual(before.map((a) => ({ ...(a as object), rate_limited: 0 })))
    db.run(`INSERT INTO delivery (id, server_id, channel, pseudo, created_at, updated_at) VALUES ('x', 's', 'discord', 'Alex', 3, 3)`)
    db.run(`INSERT INTO delivery_attempt (delivery_id, server_id, attempt, status, started_at) VALUES ('x', 's', 1, 'pending', 3)`)
    expect(db.query(`SELECT id FROM delivery_attempt WHERE delivery_id = 'x'`).get()).toEqual({ id: 6 })
    expect(() => db.run(`INSERT INTO delivery (id, server_id, channel, pseudo, created_at, updated_at) VALUES ('y', 's', 'email', 'Alex', 3, 3)`)).toThrow('CHECK')
    expect(db.query('PRAGMA foreign_key_check').all()).toEqual([])
    db.run(`DELETE FROM server WHERE id = 's'`)
    expect(db.query('SELECT count(*) AS n FROM delivery_attempt').get()).toEqual({ n: 0 })
    db.close()
  })
})

describe('0095: vote_address keyed by (server_id, ip_key, created_at)', () => {
  test('every address row is kept, the interval and check reads find them by the new key, and they go with their server', () => {
    const db = openDatabase(join(tempDir(), 'v.db'))
    migrate(db, migrations.filter((m) => m.name < '0095'))
    db.run(`INSERT INTO user (id, email, email_key, password_hash, created_at) VALUES ('u', 'a@example.com', 'a@example.com', 'x', 1)`)
    for (const s of ['s', 't']) db.run(`INSERT INTO server (id, owner_id, slug, name, host, created_at, updated_at) VALUES ('${s}', 'u', '${s}', 'S', 'play.example.com', 1, 1)`)
    const votes = [['v1', 's', 10, ['4:203.0.113.7', '6:2001:db8:0:1']], ['v2', 's', 11, ['4:203.0.113.8']], ['v3', 't', 10, ['4:203.0.113.7']]] as const
    for (const [id, server, at, keys] of votes) {
      db.run(`INSERT INTO vote (id, server_id, pseudo, pseudo_key, created_at) VALUES (?, ?, 'Steve', 'steve', ?)`, [id, server, at])
      for (const k of keys) db.run('INSERT INTO vote_address (vote_id, server_id, ip_key, address, created_at) VALUES (?, ?, ?, ?, ?)', [id, server, k, k.slice(2), at])
    }
    const before = db.query('SELECT * FROM vote_address ORDER BY vote_id, ip_key').all()
    expect(migrate(db)).toEqual(migrations.filter((m) => m.name >= '0095').map((m) => m.name))
    expect(db.query('SELECT * FROM vote_address ORDER BY vote_id, ip_key').all()).toEqual(before)
    const plan = (sql: string) => (db.query(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ')
    expect(plan(`SELECT max(created_at) FROM vote_address WHERE server_id = 's' AND ip_key = '4:203.0.113.7' AND created_at >= 5`))
      .toContain('USING PRIMARY KEY (server_id=? AND ip_key=? AND created_at>?)')
    // One row per vote and address: the same address twice in one vote is refused by the key.
    expect(() => db.run(`INSERT INTO vote_address (vote_id, server_id, ip_key, address, created_at) VALUES ('v2', 's', '4:203.0.113.8', '203.0.113.8', 11)`)).toThrow('UNIQUE')
    expect(db.query('PRAGMA foreign_key_check').all()).toEqual([])
    db.run(`DELETE FROM server WHERE id = 's'`)
    expect(db.query('SELECT vote_id, ip_key FROM vote_address').all()).toEqual([{ vote_id: 'v3', ip_key: '4:203.0.113.7' }])
    db.close()
  })
})

describe('0097: servers and accounts deleted in steps', () => {
  test('the servers and accounts already there stay listed and can log in; the purge steps use their indexes', () => {
    const dir = tempDir()
    const db = openDatabase(join(dir, 'p.db'))
    migrate(db, migrations.filter((m) => m.name < '0097'))
    db.run(`INSERT INTO user (id, email, email_key, password_hash, created_at) VALUES ('u', 'a@example.com', 'a@example.com', 'x', 1)`)
    db.run(`INSERT INTO server (id, owner_id, slug, name, host, created_at, updated_at) VALUES ('s', 'u', 'alpha', 'Alpha', 'play.example.com', 1, 1)`)
    db.run(`INSERT INTO vote (id, server_id, pseudo, pseudo_key, created_at) VALUES ('v', 's', 'Steve', 'steve', 10)`)
    expect(migrate(db)).toEqual(migrations.filter((m) => m.name >= '0097').map((m) => m.name))
    const store = sqliteStore(db, { requireVerification: false })
    expect(store.servers.bySlug('alpha')).toMatchObject({ id: 's', ownerId: 'u' })
    expect(store.servers.listedBySlug('alpha')).toMatchObject({ id: 's' })
    expect(store.users.byId('u')).toMatchObject({ email: 'a@example.com', disabled: false })
    expect(store.servers.deleted()).toEqual([])
    const plan = (sql: string) => (db.query(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ')
    for (const { sql } of stepSql((n) => `?${n}`)) expect(plan(sql.replaceAll('?1', "'s'"))).not.toMatch(/\bSCAN (vote|vote_address|voter_month|server_month|delivery|delivery_attempt|ping_sample|ping_hourly|ping_daily)\b/)
    expect(plan('SELECT id, num FROM server WHERE deleted_at IS NOT NULL')).toContain('server_purge_due')
    store.close()
  })
})
