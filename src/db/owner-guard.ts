import { dirname } from '../file-path.ts'
import { nodeFs } from '../lazy-modules.ts'

export class DatabaseOwnerError extends Error {}

export const userName = (uid: number) => {
  try {
    return nodeFs().readFileSync('/etc/passwd', 'utf8').split('\n').map((l) => l.split(':')).find((f) => f[2] === String(uid))?.[0]
  } catch {
    return undefined
  }
}

// "the user votelist runs as (votelist)", for messages about what that user may not do.
export function runAs(): string {
  const uid = process.getuid?.() ?? -1
  return `the user votelist runs as (${userName(uid) ?? `uid ${uid}`})`
}

// Root opening a database whose folder belongs to the service user (install.sh: votelist) would
// create root-owned files there (the database itself, its -wal and -shm) that the service can no
// longer write. Refuse, and say which user to run as.
export function refuseForeignOwner(databasePath: string): void {
  if (process.getuid?.() !== 0 || databasePath === ':memory:') return
  const dir = dirname(databasePath)
  if (!nodeFs().existsSync(dir)) return
  const owner = nodeFs().statSync(dir).uid
  if (owner === 0) return
  const name = userName(owner) ?? String(owner)
  throw new DatabaseOwnerError(`${dir} belongs to ${name}, not root: run this as that user (sudo -u ${name} votelist …) so that the files it writes stay usable by the site`)
}
