import { dirname } from '../file-path.ts'
import { nodeFs } from '../lazy-modules.ts'
import { runAs } from './owner-guard.ts'

// The file system refused what the database needs: `permission` when the user votelist runs as
// may not write there (or the file system is read-only), `io` when the disk is full or failed.
export class StorageError extends Error {
  constructor(message: string, readonly kind: 'permission' | 'io') {
    super(message)
  }
}

// Why `path` cannot be written: 'EROFS', 'EACCES'… or null when it can (or does not exist).
function writeRefusal(path: string): string | null {
  try {
    nodeFs().accessSync(path, nodeFs().constants.W_OK)
    return null
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return code === 'ENOENT' ? null : code ?? 'EACCES'
  }
}

const isFolder = (path: string) => {
  try {
    return nodeFs().statSync(path).isDirectory()
  } catch {
    return false
  }
}

const diskFull = (dir: string) => {
  try {
    return nodeFs().statfsSync(dir).bavail === 0
  } catch {
    return false
  }
}

// Turns the ways a file system refuses the database (a read-only database file, a data folder
// that cannot be written or created, a full disk, an I/O error) into one sentence saying what
// and where; any other error is returned as it is. `doing` says what was being written.
export function storageFault(e: unknown, databasePath: string, doing = ''): unknown {
  const code = (e as { code?: unknown }).code
  if (typeof code !== 'string') return e
  const dir = dirname(databasePath)
  const during = doing ? ` (${doing})` : ''
  const where = `${databasePath}${during}`

  // mkdir of the data folder (node:fs errors carry the path that failed).
  const failedPath = (e as NodeJS.ErrnoException).path
  if (code === 'ENOSPC') return new StorageError(`the disk is full: cannot create the data folder ${failedPath ?? dir}`, 'io')
  if (code === 'EROFS') return new StorageError(`cannot create the data folder ${failedPath ?? dir}: the file system is read-only (database.path)`, 'permission')
  if (code === 'EACCES' || code === 'EPERM') {
    return new StorageError(`cannot create the data folder ${failedPath ?? dir}: permission denied for ${runAs()} (database.path)`, 'permission')
  }
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    return new StorageError(`cannot create the data folder ${failedPath ?? dir}: a file of that name is in the way (database.path)`, 'permission')
  }

  if (!code.startsWith('SQLITE_')) return e
  if (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR')) {
    if (code === 'SQLITE_FULL' || diskFull(dir)) return new StorageError(`the disk holding ${dir} is full: cannot write the database ${where}`, 'io')
    return new StorageError(`cannot write the database ${where}: disk I/O error (${code})`, 'io')
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN')) {
    if (isFolder(databasePath)) {
      return new StorageError(`database.path names the folder ${databasePath}: it must name the database file, e.g. ${databasePath.replace(/\/+$/, '')}/votelist.db`, 'permission')
    }
    const file = writeRefusal(databasePath)
    if (file === 'EROFS' || writeRefusal(dir) === 'EROFS') return new StorageError(`the database ${databasePath} is on a read-only file system (database.path)`, 'permission')
    if (file) return new StorageError(`the database ${databasePath} is read-only for ${runAs()}: make it writable by that user (database.path)`, 'permission')
    if (writeRefusal(dir)) {
      return new StorageError(`the data folder ${dir} is not writable by ${runAs()}: the database and its -wal and -shm files are written there (database.path)`, 'permission')
    }
    return new StorageError(`cannot open the database ${where} for writing: ${(e as Error).message} (${code})`, 'permission')
  }
  return e
}

// Why a backup could not be written to `target`: the same causes, said of the backup's file and
// folder rather than the database's.
export function backupFault(e: unknown, target: string): unknown {
  const code = (e as { code?: unknown }).code
  if (typeof code !== 'string') return e
  const dir = dirname(target)
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || ((code.startsWith('SQLITE_IOERR') || code === 'EIO') && diskFull(dir))) {
    return new StorageError(`the disk holding ${dir} is full: the backup ${target} was not written`, 'io')
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return new StorageError(`cannot write the backup ${target}: disk I/O error (${code})`, 'io')
  const refusal = writeRefusal(dir)
  if (refusal === 'EROFS') return new StorageError(`cannot write the backup ${target}: ${dir} is on a read-only file system`, 'permission')
  if (refusal) return new StorageError(`cannot write the backup ${target}: the folder ${dir} is not writable by ${runAs()}`, 'permission')
  return e
}
