import type { Awaitable } from '../db/store.ts'

// Captcha solutions already accepted (see migrations/0020_captcha.sql).
export interface CaptchaRepo {
  // Marks a solution used; false when it already was. One statement, so two concurrent
  // submissions of the same solution cannot both pass.
  use(id: string, expiresAt: number): Awaitable<boolean>
  purgeExpired(now: number): Awaitable<number>
}
