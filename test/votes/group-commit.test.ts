import { afterAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { openDatabase, writeTx } from '../../src/db/open.ts'
import { createGroupCommit } from '../../src/votes/group-commit.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'

afterAll(cleanupTemp)

function setUp() {
  const path = join(tempDir(), 'g.db')
  const db = openDatabase(path)
  db.run('CREATE TABLE t (x INTEGER NOT NULL)')
  const insert = db.prepare('INSERT INTO t (x) VALUES (?)')
  // Like recordVote: its own write transaction (a savepoint once nested).
  const write = (x: number) => () => writeTx(db, () => {
    insert.run(x)
    if (x < 0) throw new Error(`refused ${x}`)
    return x
  })
  const rows = () => (db.query('SELECT x FROM t ORDER BY x').all() as { x: number }[]).map((r) => r.x)
  return { path, db, write, rows }
}

describe('group commit', () => {
  test('writes handed in together share one transaction; a refused one rolls back alone', async () => {
    const { path, db, write, rows } = setUp()
    const commit = createGroupCommit(db)
    // Another connection sees nothing of the group until its single COMMIT.
    const reader = new Database(path, { readonly: true })
    const seenOutside: number[] = []
    const outcomes = await Promise.allSettled([1, 2, -3, 4].map((x) => commit(() => {
      seenOutside.push((reader.query('SELECT count(*) AS n FROM t').get() as { n: number }).n)
      return write(x)()
    })))
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([1, 2, 'refused -3', 4])
    expect(seenOutside).toEqual([0, 0, 0, 0])
    expect(rows()).toEqual([1, 2, 4])
    expect((reader.query('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(3)
    reader.close()
    // Later writes form a new group.
    expect(await commit(write(5))).toBe(5)
    expect(rows()).toEqual([1, 2, 4, 5])
  })

  test('when the group cannot be committed every write of it fails and nothing is kept', async () => {
    const { path, db, write, rows } = setUp()
    db.run('PRAGMA busy_timeout = 20')
    const other = new Database(path)
    other.run('BEGIN IMMEDIATE') // another writer holds the lock
    const commit = createGroupCommit(db)
    const outcomes = await Promise.allSettled([1, 2].map((x) => commit(write(x))))
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    other.run('ROLLBACK')
    other.close()
    expect(rows()).toEqual([])
    expect(await commit(write(3))).toBe(3)
  })

  test('when SQLite ends the transaction itself (full disk, I/O error), every write of the group fails and none runs on its own', async () => {
    const { db, write, rows } = setUp()
    const commit = createGroupCommit(db)
    const lost = () => writeTx(db, () => {
      db.run('INSERT INTO t (x) VALUES (99)')
      db.run('ROLLBACK') // what SQLite does on SQLITE_FULL or SQLITE_IOERR
      throw new Error('disk full')
    })
    const outcomes = await Promise.allSettled([commit(write(1)), commit(lost), commit(write(3)), commit(write(4))])
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected'])
    expect(rows()).toEqual([])
    expect(db.inTransaction).toBe(false)
    expect(await commit(write(5))).toBe(5)
    expect(rows()).toEqual([5])
  })
})
