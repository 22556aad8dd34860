import { BUSY_TIMEOUT_MS, openDatabase } from './open.ts'
import { storageFault } from './storage-error.ts'

// Writes a consistent copy of the database at `path` to `target` (a new file). VACUUM INTO reads
// one snapshot of the live database: the copy is consistent while the site runs.
export function backupDatabase(path: string, target: string): void {
  const db = openDatabase(path)
  try {
    db.prepare('VACUUM INTO ?').run(target)
  } finally {
    db.close()
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

export function backupDatabaseInWorker(path: string, target: string): Promise<void> {
  workerUrl ??= URL.createObjectURL(new Blob([WORKER], { type: 'application/javascript' }))
  const worker = new Worker(workerUrl)
  return new Promise<void>((resolve, reject) => {
    worker.onmessage = ({ data }: MessageEvent<{ ok: boolean; message?: string; code?: string }>) => {
      if (data.ok) resolve()
      else reject(storageFault(Object.assign(new Error(data.message), { code: data.code }), target))
    }
    worker.onerror = (e) => reject(new Error(`the backup could not run: ${e.message}`))
    worker.postMessage({ path, target })
  }).finally(() => worker.terminate())
}
