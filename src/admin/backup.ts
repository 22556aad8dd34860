import type { User } from '../accounts/repo.ts'
import type { AuditRepo } from '../audit/repo.ts'
import { audit } from '../audit/service.ts'
import type { Clock } from '../clock.ts'
import { backupLeftovers } from '../db/backup.ts'
import type { StoreControl, StoreWrites } from '../db/store.ts'
import { basename, dirname, join } from '../file-path.ts'
import { refusal } from '../http/errors.ts'
import { randomSecret } from '../ids.ts'
import { nodeFsPromises } from '../lazy-modules.ts'

// A backup downloaded from the browser: the same consistent snapshot as `votelist backup`
// (SQLite VACUUM INTO, made in a worker thread while the site keeps running), written to a
// temporary file beside the database (the data folder: the one place the service may write, and
// on the disk that holds the data), then streamed. The file is unlinked as soon as it is open, so
// it is gone whatever happens to the download; its space is freed when the stream ends. A site on
// PostgreSQL is refused, as `votelist backup` refuses it: its database server's tools back it up.

export interface BackupDeps {
  config: { database: { path: string } }
  clock: Clock
  store: { audit: AuditRepo } & StoreWrites<{ audit: AuditRepo }> & Pick<StoreControl, 'kind' | 'backup'>
}

const CHUNK = 256 * 1024

export const backupFileName = (at: number) => `votelist-${new Date(at).toISOString().replace(/[:.]/g, '-')}.db`

export const POSTGRES_BACKUP = 'the site\'s database is PostgreSQL: back it up with the database server\'s own tools (pg_dump --format=custom, or continuous archiving for point-in-time recovery); this download copies SQLite databases only'

// The temporary copies of `database`'s backups are named `${tempPrefix}<12 random characters>.tmp`
// (with SQLite's -journal beside while one is written).
const tempPrefix = (database: string) => `.${basename(database)}.backup-`
const TEMP_SUFFIX = /^[A-Za-z0-9_-]{12}\.tmp(-journal)?$/

// Removes the temporary copies a previous process left when it died making a backup (kill -9, the
// service manager's SIGKILL after its stop timeout, a power cut): each as large as the database,
// hidden in the data folder. Called at start with the instance lock held, so that no process is
// writing one. Answers the names removed; one that cannot be removed never stops the start.
export async function removeInterruptedBackups(database: string): Promise<string[]> {
  if (database === ':memory:') return []
  const dir = dirname(database)
  const left = backupLeftovers(dir, tempPrefix(database), TEMP_SUFFIX, { onlyFiles: true })
  const outcomes = await Promise.allSettled(left.map((name) => Bun.file(join(dir, name)).delete()))
  return left.filter((_, i) => outcomes[i].status === 'fulfilled')
}

export async function backupResponse(deps: BackupDeps, actor: User): Promise<Response> {
  if (deps.store.kind !== 'sqlite') throw refusal('SQLITE_ONLY', POSTGRES_BACKUP)
  const now = deps.clock.now()
  const db = deps.config.database.path
  const temp = join(dirname(db), `${tempPrefix(db)}${randomSecret(9)}.tmp`)
  const { open, rm } = nodeFsPromises()
  let file
  try {
    await deps.store.backup(temp)
    file = await open(temp, 'r')
  } finally {
    await rm(temp, { force: true })
  }
  const handle = file
  const name = backupFileName(now)
  let size: number
  try {
    size = (await handle.stat()).size
    await deps.store.write((tx) => audit(tx, now, actor, 'site.backup', { type: 'site', id: 'database', label: name }, { bytes: size }))
  } catch (e) {
    await handle.close()
    throw e
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const buffer = new Uint8Array(CHUNK)
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null)
      if (bytesRead === 0) {
        await handle.close()
        controller.close()
      } else {
        controller.enqueue(buffer.subarray(0, bytesRead))
      }
    },
    cancel: () => handle.close(),
  })
  return new Response(body, {
    headers: {
      'content-type': 'application/vnd.sqlite3',
      'content-length': String(size),
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    },
  })
}
