import { afterAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { openDatabase, writeTx } from '../../src/db/open.ts'
import { createGroupCommit } from '../../src/db/group-commit.ts'
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
  test('held back, writes wait until the hold ends, then go as one group; a hold that fails holds no longer', async () => {
    const { db, write, rows } = setUp()
    const commit = createGroupCommit(db)
    let release!: () => void
    commit.hold(new Promise<void>((r) => { release = r }))
    const written = [commit(write(1)), commit(write(2))]
    // Several turns of the event loop: the group would have been written at the first.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
    expect(rows()).toEqual([])
    release()
    expect(await Promise.all(written)).toEqual([1, 2])
    expect(rows()).toEqual([1, 2])
    commit.hold(Promise.reject(new Error('the checkpointer is gone')))
    expect(await commit(write(3))).toBe(3)
    expect(rows()).toEqual([1, 2, 3])
  })

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

  // Bare writes (as castVote hands in writeVote): no savepoint of their own, the group keeps
  // them atomic. Refused before writing, or failing after writing, they leave no trace.
  function bareWrites(db: Database) {
    const insert = db.prepare('INSERT INTO t (x) VALUES (?)')
    const runs: number[] = []
    return {
      runs,
      ok: (x: number) => () => { runs.push(x); insert.run(x); insert.run(x * 10); return x },
      refused: (x: number) => () => { runs.push(x); throw new Error(`refused ${x}`) },
      partial: (x: number) => () => { runs.push(x); insert.run(x); insert.run(x * 10); throw new Error(`failed after writing ${x}`) },
      // A statement that fails half way is undone by SQLite itself: nothing of it remains.
      failedStatement: (x: number) => () => { runs.push(x); db.run('INSERT INTO t (x) VALUES (?), (NULL)', [x]); return x },
      lost: (x: number) => () => { runs.push(x); insert.run(x); db.run('ROLLBACK'); throw new Error(`transaction lost at ${x}`) },
    }
  }
  const settle = async (commit: ReturnType<typeof createGroupCommit>, writes: (() => number)[], atomicity: 'bare' | 'self' = 'bare') =>
    (await Promise.allSettled(writes.map((f) => commit(f, atomicity)))).map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))

  test('bare writes: one refused before writing fails alone, without running the group again', async () => {
    const { db, rows } = setUp()
    const w = bareWrites(db)
    const commit = createGroupCommit(db)
    expect(await settle(commit, [w.ok(1), w.refused(2), w.failedStatement(3), w.ok(4)]))
      .toEqual([1, 'refused 2', 'NOT NULL constraint failed: t.x', 4])
    expect(w.runs).toEqual([1, 2, 3, 4])
    expect(rows()).toEqual([1, 4, 10, 40])
  })

  test('bare writes: one failing after writing is undone alone (the group runs again, each write in a savepoint)', async () => {
    const { db, rows } = setUp()
    const w = bareWrites(db)
    const commit = createGroupCommit(db)
    expect(await settle(commit, [w.ok(1), w.partial(2), w.refused(3), w.ok(4), w.partial(5)]))
      .toEqual([1, 'failed after writing 2', 'refused 3', 4, 'failed after writing 5'])
    expect(rows()).toEqual([1, 4, 10, 40])
    expect(w.runs).toEqual([1, 2, 1, 2, 3, 4, 5])
    expect(db.inTransaction).toBe(false)
    // Self-atomic and bare writes mix in one group.
    const self = (x: number) => () => writeTx(db, () => { db.run('INSERT INTO t (x) VALUES (?)', [x]); if (x === 7) throw new Error('self refused 7'); return x })
    const outcomes = await Promise.allSettled([commit(self(6)), commit(w.partial(8), 'bare'), commit(self(7)), commit(w.ok(9), 'bare')])
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([6, 'failed after writing 8', 'self refused 7', 9])
    expect(rows()).toEqual([1, 4, 6, 9, 10, 40, 90])
  })

  test('bare writes: when SQLite ends the transaction itself, every write of the group fails and nothing is kept', async () => {
    const { db, rows } = setUp()
    const w = bareWrites(db)
    const commit = createGroupCommit(db)
    for (const group of [[w.ok(1), w.lost(2), w.ok(3)], [w.partial(4), w.ok(5), w.lost(6), w.ok(7)]]) {
      expect((await settle(commit, group)).every((o) => typeof o === 'string')).toBe(true)
      expect(rows()).toEqual([])
      expect(db.inTransaction).toBe(false)
    }
    expect(await commit(w.ok(8), 'bare')).toBe(8)
    expect(rows()).toEqual([8, 80])
  })
})
