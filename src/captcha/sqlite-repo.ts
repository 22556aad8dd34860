import type { Database } from 'bun:sqlite'
import type { CaptchaRepo } from './repo.ts'

export function sqliteCaptchaRepo(db: Database) {
  const use = db.prepare('INSERT OR IGNORE INTO captcha_use (id, expires_at) VALUES (?, ?)')
  const purge = db.prepare('DELETE FROM captcha_use WHERE expires_at <= ?')
  return {
    use: (id, expiresAt) => use.run(id, expiresAt).changes === 1,
    purgeExpired: (now) => purge.run(now).changes,
  } satisfies CaptchaRepo
}
