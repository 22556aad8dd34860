import type { Database } from 'bun:sqlite'

// Captcha solutions already accepted (see migrations/0020_captcha.sql).
export function captchaRepo(db: Database) {
  const use = db.prepare('INSERT OR IGNORE INTO captcha_use (id, expires_at) VALUES (?, ?)')
  const purge = db.prepare('DELETE FROM captcha_use WHERE expires_at <= ?')
  return {
    // Marks a solution used; false when it already was. One statement, so two concurrent
    // submissions of the same solution cannot both pass.
    use: (id: string, expiresAt: number) => use.run(id, expiresAt).changes === 1,
    purgeExpired: (now: number) => purge.run(now).changes,
  }
}
export type CaptchaRepo = ReturnType<typeof captchaRepo>
