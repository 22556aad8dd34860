import { exec, type Pg } from '../db/postgres-client.ts'
import type { CaptchaRepo } from './repo.ts'

export function postgresCaptchaRepo(pg: Pg) {
  return {
    use: async (id, expiresAt) => (await exec(pg, 'INSERT INTO captcha_use (id, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, expiresAt])) === 1,
    purgeExpired: (now) => exec(pg, 'DELETE FROM captcha_use WHERE expires_at <= $1', [now]),
  } satisfies CaptchaRepo
}
