import { openDatabase } from './open.ts'

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
