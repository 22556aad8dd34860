import type { Database } from 'bun:sqlite'
import { nodeFs } from '../lazy-modules.ts'
import type { Logger } from '../log.ts'
import { BUSY_TIMEOUT_MS } from './open.ts'

// WAL checkpoints off the event loop. By default SQLite checkpoints in the connection that
// commits, once the WAL passes 1,000 pages: that commit then copies the WAL into the database
// file and waits for two fsyncs, and every request of the site waits with it (under a vote burst
// on a small VPS, 10 ms and more every few hundred votes: most of the votes' p99). While the site
// serves, a worker thread with its own connection checkpoints instead (PASSIVE: it never blocks
// the site's writer or readers), and the site's connection stops checkpointing by itself.
// Durability is unchanged: a commit is durable in the WAL when it returns, whoever checkpoints
// it later, and a crash at any point is recovered from the WAL at the next open.
//
// The thread (a JavaScript thread costs about 5 MB) starts with the first writes that fill the
// WAL past START_BYTES, so a list that is only read never pays for it. If it cannot start or
// fails, the site's connection checkpoints by itself again, as SQLite does by default.

const POLL_MS = 100
// About 256 pages: a few dozen votes.
const START_BYTES = 1024 * 1024
// A PASSIVE checkpoint never waits, but under steady writes it never catches up with the end of
// the WAL either, and SQLite only starts the WAL over (at the next write) once everything in it
// was copied: it would grow without end (hundreds of MB in seconds under a vote burst), and every
// read gets slower as it grows. Past this many frames (64 MB of 4 KB pages), the site's grouped
// writes (votes) are held back for one more checkpoint, which then has only the little written
// since the last one to copy; the held writes then start the WAL over. Reads go on meanwhile.
// (A RESTART checkpoint would do it too, but the site's connection would wait for it inside
// SQLite's busy handler, whose sleeps grow to 100 ms, with the event loop stopped.)
const CATCH_UP_FRAMES = 16_384
// SQLite's own threshold, in pages, for a connection that checkpoints by itself.
export const DEFAULT_AUTOCHECKPOINT = 1000

// SQLite syncs the database file only at the pass that copies the whole WAL: the one that runs
// with the writes held. That sync then wrote back every page copied since the last complete pass
// (tens of MB under a vote burst), 8–11 ms of the hold. So after a pass that leaves frames behind,
// the thread syncs the database file itself, through a descriptor of its own: the held pass then
// only syncs what it copied. Nothing changes for durability (a sync more, earlier).
// That descriptor stays open until the site's connection is closed (release()): on Linux, closing
// any descriptor of a file drops every POSIX lock the process holds on it, SQLite's included.
//
// The worker is built from source text, like the backup's (src/db/backup.ts): the compiled
// binary needs no extra entry point. It only uses bun:sqlite and node:fs.
const WORKER = `
import { Database } from 'bun:sqlite'
import { fsyncSync } from 'node:fs'
let db = null
self.onmessage = ({ data }) => {
  try {
    if (data.close) {
      db?.close()
      db = null
      postMessage({ ok: true })
      return
    }
    if (!db) {
      db = new Database(data.path, { readwrite: true, create: false })
      db.run('PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}')
    }
    const r = db.query('PRAGMA wal_checkpoint(PASSIVE)').get()
    if (data.syncDb) fsyncSync(data.fd)
    postMessage({ ok: true, busy: r.busy, log: r.log, checkpointed: r.checkpointed })
  } catch (e) {
    postMessage({ ok: false, message: String(e && e.message || e) })
  }
}`

let workerUrl: string | null = null

interface Reply {
  ok: boolean
  message?: string
  log?: number
  checkpointed?: number
}

export interface Checkpointer {
  // What the timer does every POLL_MS (tests call it to look at once).
  poll(): void
  // Resolves after one checkpoint by the thread (starting it if needed).
  checkpoint(): Promise<Reply>
  readonly running: boolean
  // Grouped writes are held back until the checkpoint in flight has caught up.
  readonly catchingUp: boolean
  // Closes the thread's connection (so that closing the site's, the last one, folds the WAL into
  // the database file) and ends the thread.
  stop(): Promise<void>
  // Closes the thread's descriptor of the database file: only once the site's connection is
  // closed (see above).
  release(): void
}

// `holdWrites(until)`: holds the grouped writes back until `until` resolves (src/db/group-commit.ts).
export function startCheckpointer(db: Database, log: Logger, holdWrites: (until: Promise<unknown>) => void, catchUpFrames = CATCH_UP_FRAMES): Checkpointer | null {
  const path = db.filename
  if (path === '' || path === ':memory:') return null
  const wal = `${path}-wal`
  let worker: Worker | null = null
  let fd: number | null = null
  let failed = false
  let inFlight: Promise<Reply> | null = null
  let lastSeen = -1
  // Logged when checkpoints start failing (a full disk) and when they work again, not each time.
  let failing = false
  let catchingUp = false
  let tightened = false
  // Answers the checkpoint in flight when the thread is gone (whoever waits on it, held writes
  // included, goes on).
  let settle: ((reply: Reply) => void) | null = null

  const giveUp = (why: string) => {
    if (failed) return
    failed = true
    worker?.terminate()
    worker = null
    settle?.({ ok: false, message: why })
    try {
      db.run(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`)
    } catch {}
    log.warn('WAL checkpoints run in the site\'s own thread again', { reason: why })
  }

  const ask = (): Promise<Reply> => {
    if (inFlight) return inFlight
    if (!worker) {
      try {
        fd ??= nodeFs().openSync(path, 'r')
      } catch (e) {
        giveUp(`the database file cannot be opened for syncing: ${(e as Error).message}`)
        return Promise.resolve({ ok: false, message: 'stopped' })
      }
      workerUrl ??= URL.createObjectURL(new Blob([WORKER], { type: 'application/javascript' }))
      worker = new Worker(workerUrl)
      worker.onerror = (e) => giveUp(`the checkpoint thread failed: ${e.message}`)
    }
    const w = worker
    inFlight = new Promise<Reply>((resolve) => {
      settle = resolve
      w.onmessage = ({ data }: MessageEvent<Reply>) => resolve(data)
      w.postMessage({ path, fd, syncDb: !catchingUp })
    }).then((reply) => {
      settle = null
      inFlight = null
      if (!reply.ok && !failing) log.warn('WAL checkpoints fail; trying again every moment', { error: reply.message })
      if (reply.ok && failing) log.info('WAL checkpoints work again')
      failing = !reply.ok
      // Past the size: one more pass at once, which only copies what came during this one, then
      // a last one with the writes held, which copies less still (and syncs: a millisecond or two).
      if (reply.ok && !catchingUp && !failed) {
        if (reply.log! <= catchUpFrames) tightened = false
        else if (!tightened) {
          tightened = true
          void ask()
        } else {
          tightened = false
          catchingUp = true
          const caughtUp = ask()
          holdWrites(caughtUp)
          void caughtUp.then(() => {
            catchingUp = false
          })
        }
      }
      return reply
    })
    return inFlight
  }

  // Checkpoints when the WAL changed since the last look (its mtime); starts the thread, and
  // turns the connection's own checkpoints off, once the WAL has grown past START_BYTES.
  // The WAL is looked at through Bun.file() (a stat each time) rather than node:fs, which the
  // poll loaded a tenth of a second after every start, the only Node module an idle site on an
  // existing database loaded (its idle RSS in the startup bench: 49.4 MB against 50.0-50.2). A
  // missing WAL has no size and one unchanging (far-future) time.
  const poll = () => {
    if (failed || inFlight) return
    const file = Bun.file(wal)
    const changed = file.lastModified
    if (changed === lastSeen) return
    if (!worker) {
      if (file.size < START_BYTES) return
      try {
        ask()
        db.run('PRAGMA wal_autocheckpoint = 0')
      } catch (e) {
        giveUp(String((e as Error).message))
        return
      }
      lastSeen = changed
      return
    }
    lastSeen = changed
    ask()
  }
  const timer = setInterval(poll, POLL_MS)
  timer.unref()

  return {
    poll,
    checkpoint: () => (failed ? Promise.resolve({ ok: false, message: 'stopped' }) : ask()),
    get catchingUp() {
      return catchingUp
    },
    get running() {
      return worker !== null && !failed
    },
    async stop() {
      clearInterval(timer)
      failed = true
      const w = worker
      worker = null
      if (w) {
        await inFlight
        await new Promise<void>((resolve) => {
          w.onmessage = () => resolve()
          w.onerror = () => resolve()
          w.postMessage({ close: true })
        })
        w.terminate()
      }
      try {
        db.run(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`)
      } catch {}
    },
    release() {
      if (fd !== null) nodeFs().closeSync(fd)
      fd = null
    },
  }
}
