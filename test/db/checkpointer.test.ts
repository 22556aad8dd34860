import { afterAll, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { startCheckpointer } from '../../src/db/checkpointer.ts'
import { openDatabase } from '../../src/db/open.ts'
import { memoryLogger } from '../../src/log.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

const autocheckpoint = (db: Database) => (db.query('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint

// Writes in the tests wait while the checkpointer holds them back, as the site's grouped ones do.
function holder() {
  let held: Promise<unknown> | null = null
  return {
    hold: (until: Promise<unknown>) => {
      held = until
    },
    ready: async () => {
      while (held) {
        const until = held
        await until
        if (held === until) held = null
      }
    },
  }
}

function filled(rows: number) {
  const path = join(tempDir(), 'votelist.db')
  const db = openDatabase(path)
  db.run('CREATE TABLE vote (id INTEGER PRIMARY KEY, pseudo TEXT NOT NULL)')
  const insert = db.prepare('INSERT INTO vote (pseudo) VALUES (?)')
  const write = (n: number) => db.transaction(() => { for (let i = 0; i < n; i++) insert.run(`player_${i}`.padEnd(200, '.')) })()
  write(rows)
  return { db, path, write }
}

test('a site that only reads never starts the thread, and checkpoints in its own connection as SQLite does', async () => {
  const { db } = filled(10)
  const log = memoryLogger()
  const c = startCheckpointer(db, log, holder().hold)!
  try {
    c.poll()
    expect(c.running).toBe(false)
    expect(autocheckpoint(db)).toBe(1000)
  } finally {
    await c.stop()
    db.close()
    c.release()
  }
})

test('once writes fill the WAL, a thread checkpoints it and the connection no longer does', async () => {
  const { db, path, write } = filled(6000) // some 1.5 MB of WAL
  const c = startCheckpointer(db, memoryLogger(), holder().hold)!
  try {
    c.poll()
    expect(c.running).toBe(true)
    expect(autocheckpoint(db)).toBe(0)
    // Everything written is copied into the database file by the thread: a checkpoint that
    // finds the whole log backfilled.
    // (A checkpoint asked for before the write could answer for it: let any in flight end.)
    await c.checkpoint()
    write(3000)
    await until(async () => {
      const r = await c.checkpoint()
      return r.ok && r.log === r.checkpointed
    }, 'a complete checkpoint')
    // The rows are in the database file itself now, not only in the WAL.
    expect(statSync(path).size).toBeGreaterThan(9000 * 200)
    await c.stop()
    expect(autocheckpoint(db)).toBe(1000)
  } finally {
    await c.stop()
    db.close()
    c.release()
  }
})

test('under steady writes the WAL stays bounded: past its size the writes wait for one checkpoint, then start it over', async () => {
  const { db, path, write } = filled(6000)
  const writes = holder()
  // Catching up past 512 frames (2 MB) here, instead of the site's 64 MB.
  const c = startCheckpointer(db, memoryLogger(), writes.hold, 512)!
  try {
    c.poll()
    expect(c.running).toBe(true)
    // 60,000 more rows (some 15 MB) in small transactions, checkpoints running alongside: without
    // the catching up the WAL would hold them all (a PASSIVE checkpoint never reaches the end of
    // a WAL that keeps growing).
    let checkpoint: Promise<unknown> = c.checkpoint()
    let held = 0
    for (let i = 0; i < 600; i++) {
      await writes.ready()
      write(100)
      if (i % 20 === 0) {
        await checkpoint
        checkpoint = c.checkpoint()
      }
      if (c.catchingUp) held++
    }
    await checkpoint
    await writes.ready()
    write(1)
    expect(held).toBeGreaterThan(0)
    expect(statSync(`${path}-wal`).size).toBeLessThan(8 * 1024 * 1024)
    expect((db.query('SELECT count(*) AS n FROM vote').get() as { n: number }).n).toBe(66_001)
  } finally {
    await c.stop()
    db.close()
    c.release()
  }
})
