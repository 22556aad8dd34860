import { audit } from '../audit/service.ts'
import type { AuditRepo } from '../audit/repo.ts'
import type { Clock } from '../clock.ts'
import { runScriptAsync, use, type StoreWrites, type TxScript } from '../db/store.ts'
import { invalidParameter, notFound } from '../http/errors.ts'
import { randomSecret, sha256Hex } from '../ids.ts'
import type { HashGate } from './hash-gate.ts'
import { publicUser, type PasswordResetsRepo, type SessionsRepo, type User, type UsersRepo } from './repo.ts'
import { checkPassword, disabledAccount, entryOf, hashPassword, type Entry } from './service.ts'

// One-time password reset links, made by an administrator (no e-mail needed: the admin hands the
// link over) and used from the dashboard. The token is 256 bits from the CSPRNG; only its SHA-256
// is stored. A link expires after 24 hours, works once, and a new link for the same account
// replaces the previous one. Using it sets the password and ends every session of the account, and
// every device cookie issued before (the new password's hash no longer fits their stamp).

export const RESET_TTL_MS = 24 * 3600_000

interface ResetTx {
  users: UsersRepo
  passwordResets: PasswordResetsRepo
  sessions: SessionsRepo
  audit: AuditRepo
}

export interface ResetDeps {
  store: ResetTx & StoreWrites<ResetTx>
  clock: Clock
}

const invalidLink = () =>
  invalidParameter('this reset link is not valid: it has expired, was already used, or a newer link replaced it; ask an administrator for a new one', 'token')

// A new link for the account (the previous one stops working), written to the audit log as the
// administrator's. Answers the token itself, which is stored nowhere.
export async function issueResetToken(deps: ResetDeps, actor: User, userId: string): Promise<{ user: User; token: string; expiresAt: number }> {
  const token = randomSecret(32)
  const now = deps.clock.now()
  const expiresAt = now + RESET_TTL_MS
  const user = await deps.store.write(function* (tx) {
    const target = yield* use(tx.users.byId(userId))
    if (!target) throw notFound(`no account with the id ${userId}`)
    yield* use(tx.passwordResets.put({ userId, tokenHash: sha256Hex(token), createdAt: now, expiresAt }))
    yield* audit(tx, now, actor, 'user.reset_link', { type: 'user', id: target.id, label: target.email })
    return publicUser(target)
  })
  return { user, token, expiresAt }
}

function* liveReset(tx: Pick<ResetTx, 'passwordResets'>, tokenHash: string, now: number) {
  const reset = yield* use(tx.passwordResets.byHash(tokenHash))
  if (!reset || reset.expiresAt <= now) throw invalidLink()
  return reset
}

// Sets the account's new password from a live link, uses the link up and ends the account's
// sessions, in one transaction. A disabled account's link is refused and stays unused.
export async function resetPassword(deps: ResetDeps & { hashGate: HashGate }, token: string, password: string): Promise<Entry> {
  checkPassword(password)
  const tokenHash = sha256Hex(token)
  // Checked before hashing (a dead link costs no hash) and again in the transaction (two uses
  // of one link at once: the second finds it gone).
  await runScriptAsync(liveReset(deps.store, tokenHash, deps.clock.now()))
  const passwordHash = await deps.hashGate.run(() => hashPassword(password))
  return deps.store.write(function* (tx): TxScript<Entry> {
    const now = deps.clock.now()
    const reset = yield* liveReset(tx, tokenHash, now)
    const user = yield* use(tx.users.byId(reset.userId))
    if (!user) throw invalidLink()
    if (user.disabled) throw disabledAccount()
    yield* use(tx.users.setPasswordHash(user.id, passwordHash))
    yield* use(tx.passwordResets.remove(user.id))
    yield* use(tx.sessions.revokeAllOf(user.id, now))
    yield* audit(tx, now, user, 'user.password_reset', { type: 'user', id: user.id, label: user.email })
    return entryOf({ ...user, passwordHash })
  })
}
