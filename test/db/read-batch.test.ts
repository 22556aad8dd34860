import { afterAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { openDatabase, writeTx } from '../../src/db/open.ts'
import { readBatches } from '../../src/db/read-batch.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'

afterAll(cleanupTemp)

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

function site() {
  const path = join(tempDir(), 'votelist.db')
  const db = openDatabase(path)
  db.run('CREATE TABLE vote (id INTEGER PRIMARY KEY, pseudo TEXT NOT NULL)')
  const reads = readBatches(db)
  const count = reads.prepare('SELECT count(*) AS n FROM vote')
  const n = () => (count.get() as { n: number }).n
  const insert = (pseudo: string) => db.run('INSERT INTO vote (pseudo) VALUES (?)', [pseudo])
  return { path, db, reads, n, insert }
}

test('a batched read sees every write of the site\'s connection made before it, in the same turn of the event loop', () => {
  const { db, reads, n, insert } = site()
  try {
    expect(n()).toBe(0)
    insert('Steve')
    expect(n()).toBe(1)
    writeTx(db, () => insert('Alex'))
    expect(n()).toBe(2)
  } finally {
    reads.close()
    db.close()
  }
})

test('inside a transaction of the site\'s connection, a read sees that transaction\'s own writes', () => {
  const { db, reads, n, insert } = site()
  try {
    expect(n()).toBe(0)
    const inside = writeTx(db, () => {
      insert('Steve')
      return n()
    })
    expect(inside).toBe(1)
  } finally {
    reads.close()
    db.close()
  }
})

test('another connection\'s write is seen from the next turn on, and the batch\'s snapshot is let go at the end of the turn', async () => {
  const { path, db, reads, n } = site()
  const other = new Database(path)
  try {
    expect(n()).toBe(0)
    other.run("INSERT INTO vote (pseudo) VALUES ('Notch')")
    // The same turn: the snapshot of its first read (a write that came concurrently).
    expect(n()).toBe(0)
    await nextTurn()
    expect(n()).toBe(1)
    // Once the turn is over no read transaction holds the WAL: a checkpoint copies all of it and
    // starts it over.
    other.run("INSERT INTO vote (pseudo) VALUES ('Jeb')")
    await nextTurn()
    const r = other.query('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number; log: number; checkpointed: number }
    expect(r).toEqual({ busy: 0, log: 0, checkpointed: 0 })
    expect(n()).toBe(2)
  } finally {
    other.close()
    reads.close()
    db.close()
  }
})

test('a write transaction of the site\'s connection ends the batch\'s read transaction first, so the WAL can start over', () => {
  const { path, db, reads, n, insert } = site()
  const other = new Database(path)
  const walFrames = () => (other.query('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number }).log
  try {
    for (let i = 0; i < 100; i++) insert(`player_${i}`)
    // A read of this turn, on a snapshot of the WAL as it is; then a checkpoint copies all of it.
    expect(n()).toBe(100)
    const before = walFrames()
    expect(before).toBeGreaterThan(50)
    // The next write starts the WAL over (only possible with no reader left on its frames): the
    // WAL then holds that write's frames alone.
    writeTx(db, () => insert('Steve'))
    expect(walFrames()).toBeLessThan(10)
    expect(n()).toBe(101)
  } finally {
    other.close()
    reads.close()
    db.close()
  }
})
