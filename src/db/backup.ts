import { basename, dirname, join } from '../file-path.ts'
import { randomSecret } from '../ids.ts'
import { nodeFs } from '../lazy-modules.ts'
import { STOP_SIGNALS, stopSignalsHeard, type StopSignal } from '../stop-signals.ts'
import { BUSY_TIMEOUT_MS, openDatabase } from './open.ts'
import { backupFault, storageFault } from './storage-error.ts'

// A backup refused for a reason other than the file system's permissions or space.
export class BackupError extends Error {}

// A backup stopped by a signal (Ctrl-C, the service manager's SIGTERM, a closed terminal's
// SIGHUP) before it was whole: nothing of it was left behind.
export class BackupInterrupted extends Error {
  constructor(readonly signal: StopSignal) {
    super(`interrupted by ${signal}: no backup was written`)
  }

  // The code a shell gives a command a signal ended: 128 + the signal's number.
  get exitCode(): number {
    return 128 + STOP_SIGNALS[this.signal]
  }
}

// Writes a consistent copy of the database at `path` to `target` (a new file). VACUUM INTO reads
// one snapshot of the live database: the copy is consistent while the site runs. It writes into a
// hidden folder of its own beside the target, and the copy is linked to the target's name only
// once whole: a copy that fails half-way (a full disk) or is stopped by a signal leaves nothing
// that passes for a backup, and never overwrites a file. The copy runs on a worker thread, so
// that a signal is heard while it runs (the default action would kill the process and leave the
// half-written copy and its journal behind, as large as the database): the folder goes, and with
// it whatever SQLite still had open or would create in it, and the command exits; a signal the
// command was started ignoring stays ignored.
// The hidden folder is named with this process's pid: see removeAbandonedCopies.
export async function backupDatabase(path: string, target: string): Promise<void> {
  const fs = nodeFs()
  const dir = dirname(target)
  const temp = join(dir, `.${basename(target)}.partial-${process.pid}-${randomSecret(6)}`)
  const copy = join(temp, basename(target))
  // Opened here first so that a database that cannot be opened is named as such.
  openDatabase(path).close()
  if (!fs.existsSync(dir)) throw new BackupError(`cannot write the backup ${target}: the folder ${dir} does not exist`)
  removeAbandonedCopies(dir)
  let stopped: (signal: StopSignal) => void = () => {}
  const interrupted = new Promise<never>((_, reject) => { stopped = (signal) => reject(new BackupInterrupted(signal)) })
  const heard = await stopSignalsHeard()
  for (const signal of heard) process.on(signal, stopped)
  try {
    try {
      fs.mkdirSync(temp, { mode: 0o700 })
      await Promise.race([vacuumPrivately(path, copy), interrupted])
      publish(copy, target)
    } catch (e) {
      if (e instanceof BackupInterrupted) throw e
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'EEXIST') throw new BackupError(`${target} already exists; choose a new file`)
      throw backupFault(e, target)
    }
  } finally {
    for (const signal of heard) process.off(signal, stopped)
    fs.rmSync(temp, { recursive: true, force: true })
  }
}

// The entries of `dir` named `prefix` followed by a rest that matches `rest`: what a backup that
// died left behind. A Bun.Glob rather than node:fs: nothing to find is the usual case, and node:fs
// would add some 4.5 ms to every start of the site (src/lazy-modules.ts). The pattern is `.*`, the
// names being matched as text (a database's name may hold [, * or ?).
export function backupLeftovers(dir: string, prefix: string, rest: RegExp, opts: { onlyFiles: boolean }): string[] {
  try {
    return [...new Bun.Glob('.*').scanSync({ cwd: dir, dot: true, onlyFiles: opts.onlyFiles })]
      .filter((name) => name.startsWith(prefix) && rest.test(name.slice(prefix.length)))
  } catch {
    return []
  }
}

// `.FILE.partial-<pid>-<8 random characters>`
const PARTIAL = /\.partial-(\d+)-[A-Za-z0-9_-]{8}$/

// A backup killed outright (kill -9, a power cut) runs no handler: its hidden folder stays, with a
// half copy as large as the database. The next backup into the same folder removes those whose
// process is gone; one whose pid is alive (another backup at work, or a pid since reused) is left.
// One that cannot be removed never stops the backup.
function removeAbandonedCopies(dir: string) {
  for (const name of backupLeftovers(dir, '.', PARTIAL, { onlyFiles: false })) {
    if (processAlive(Number(PARTIAL.exec(name)![1]))) continue
    try {
      nodeFs().rmSync(join(dir, name), { recursive: true, force: true })
    } catch {
      // Left for the next one (a folder of another user's, say).
    }
  }
}

// Signal 0 checks that the process exists without touching it; EPERM: it exists, as another user.
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

// Gives the finished copy its name. A file system without hard links (FAT, some network shares)
// gets a rename instead, the target checked absent just before.
function publish(temp: string, target: string) {
  const fs = nodeFs()
  try {
    fs.linkSync(temp, target)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e
    if (fs.existsSync(target)) throw Object.assign(new Error(`${target} exists`), { code: 'EEXIST' })
    fs.renameSync(temp, target)
  }
}

// The same copy made by a running site: in a worker thread, on a connection of its own, so that
// the site keeps answering (and voting keeps writing) while a large database is copied. The
// worker is built from source text rather than a file, so the compiled binary needs no extra
// entry point; it only uses bun:sqlite.
const WORKER = `
import { Database } from 'bun:sqlite'
self.onmessage = ({ data }) => {
  let db
  try {
    db = new Database(data.path, { readwrite: true, create: false })
    db.run('PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}')
    db.prepare('VACUUM INTO ?').run(data.target)
    postMessage({ ok: true })
  } catch (e) {
    postMessage({ ok: false, message: String(e && e.message || e), code: e && e.code })
  } finally {
    db?.close()
  }
}`

let workerUrl: string | null = null

// VACUUM INTO `target` on a worker thread; rejects with SQLite's error (its code kept).
function vacuumInWorker(path: string, target: string): Promise<void> {
  workerUrl ??= URL.createObjectURL(new Blob([WORKER], { type: 'application/javascript' }))
  const worker = new Worker(workerUrl)
  return new Promise<void>((resolve, reject) => {
    worker.onmessage = ({ data }: MessageEvent<{ ok: boolean; message?: string; code?: string }>) => {
      if (data.ok) resolve()
      else reject(Object.assign(new Error(data.message), { code: data.code }))
    }
    worker.onerror = (e) => reject(new Error(`the backup could not run: ${e.message}`))
    worker.postMessage({ path, target })
  }).finally(() => worker.terminate())
}

// VACUUM INTO `target`, a new file created readable by its owner only before a byte is copied
// into it: the copy holds the password hashes and the site's secret, and SQLite would create it
// with the mode the umask leaves (a shell's 022: readable by every user of the machine). VACUUM
// INTO accepts an empty file, and SQLite gives a journal beside it the file's own mode.
async function vacuumPrivately(path: string, target: string): Promise<void> {
  nodeFs().closeSync(nodeFs().openSync(target, 'wx', 0o600))
  await vacuumInWorker(path, target)
}

export function backupDatabaseInWorker(path: string, target: string): Promise<void> {
  return vacuumPrivately(path, target).catch((e: unknown) => {
    throw storageFault(e, target)
  })
}
