import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { openDatabase, writeTx } from '../../src/db/open.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'

afterAll(cleanupTemp)

function table(name = 'd.db') {
  const db = openDatabase(join(tempDir(), name))
  db.run('CREATE TABLE t (x INTEGER NOT NULL, pad TEXT NOT NULL DEFAULT \'\')')
  const rows = () => (db.query('SELECT x FROM t ORDER BY x').all() as { x: number }[]).map((r) => r.x)
  return { db, rows }
}

describe('openDatabase and writeTx', () => {
  test('a new database and an existing one in rollback-journal mode both open in WAL with synchronous=NORMAL, the existing one with its rows', () => {
    const dir = tempDir()
    const fresh = openDatabase(join(dir, 'new.db'))
    expect([fresh.query('PRAGMA journal_mode').get(), fresh.query('PRAGMA synchronous').get()]).toEqual([{ journal_mode: 'wal' }, { synchronous: 1 }])
    fresh.close()
    const path = join(dir, 'old.db')
    const old = new Database(path, { create: true })
    expect(old.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'delete' })
    old.run('CREATE TABLE t (x INTEGER NOT NULL)')
    old.run('INSERT INTO t (x) VALUES (1), (2)')
    old.close()
    const db = openDatabase(path)
    expect([db.query('PRAGMA journal_mode').get(), db.query('PRAGMA synchronous').get()]).toEqual([{ journal_mode: 'wal' }, { synchronous: 1 }])
    expect(db.query('SELECT x FROM t ORDER BY x').all()).toEqual([{ x: 1 }, { x: 2 }])
    db.close()
  })

  test('statement journals are kept in memory (temp_store = MEMORY)', () => {
    const { db } = table()
    expect(db.query('PRAGMA temp_store').get()).toEqual({ temp_store: 2 })
    db.close()
  })

  test('writeTx returns the work\'s value, commits it, and rolls everything back when it throws', () => {
    const { db, rows } = table()
    expect(writeTx(db, () => { db.run('INSERT INTO t (x) VALUES (1)'); return 'done' })).toBe('done')
    expect(() => writeTx(db, () => {
      db.run('INSERT INTO t (x) VALUES (2)')
      throw new Error('refused')
    })).toThrow('refused')
    expect(rows()).toEqual([1])
    expect(db.inTransaction).toBe(false)
    db.close()
  })

  test('nested, it is a savepoint: a failed inner write rolls back alone, even one that touched megabytes', () => {
    const { db, rows } = table()
    const big = 'x'.repeat(2000)
    writeTx(db, () => {
      db.run('INSERT INTO t (x) VALUES (1)')
      expect(() => writeTx(db, () => {
        // Far past the point where SQLite would spill a statement journal to a file.
        const insert = db.prepare('INSERT INTO t (x, pad) VALUES (?, ?)')
        for (let i = 100; i < 3100; i++) insert.run(i, big)
        db.run('UPDATE t SET x = -x')
        throw new Error('inner refused')
      })).toThrow('inner refused')
      db.run('INSERT INTO t (x) VALUES (2)')
    })
    expect(rows()).toEqual([1, 2])
    db.close()
  })

  test('each connection gets its own transaction: one database\'s work never runs in another\'s', () => {
    const a = table('a.db')
    const b = table('b.db')
    writeTx(a.db, () => a.db.run('INSERT INTO t (x) VALUES (1)'))
    expect(() => writeTx(b.db, () => {
      b.db.run('INSERT INTO t (x) VALUES (2)')
      expect(a.db.inTransaction).toBe(false)
      expect(b.db.inTransaction).toBe(true)
      throw new Error('b refused')
    })).toThrow('b refused')
    writeTx(a.db, () => a.db.run('INSERT INTO t (x) VALUES (3)'))
    expect(a.rows()).toEqual([1, 3])
    expect(b.rows()).toEqual([])
    a.db.close()
    b.db.close()
  })
})
