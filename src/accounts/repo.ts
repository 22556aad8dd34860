import type { Awaitable } from '../db/store.ts'

export interface User {
  id: string
  email: string
  isAdmin: boolean
  // Disabled by an administrator: no login, no session, its servers unlisted, its keys refused.
  disabled: boolean
  createdAt: number
}
export interface UserWithHash extends User {
  passwordHash: string
}

// The form of an address accounts are told apart by: Unicode NFKC (a composed and a decomposed
// é, fullwidth letters are one address), then lower case. The failed-login limiter counts by it.
export const emailKey = (email: string) => email.normalize('NFKC').toLowerCase()
// The keys an address is looked up by: its own, and the plain lower case of how it was written,
// under which an account made before the normalisation was stored.
export const emailKeys = (email: string): [string, string] => [emailKey(email), email.toLowerCase()]

export const publicUser = ({ passwordHash: _h, ...u }: UserWithHash): User => u

export interface UsersRepo {
  // Called first by a script that creates an account: account creations are taken one at a time
  // until the transaction ends, so that the checks before the insert (the address is free, the
  // first account is the administrator, sign-up closed after the first) see every account
  // committed before. SQLite's write transaction already serialises every write: nothing to do.
  serialiseCreation(): Awaitable<void>
  insert(u: UserWithHash): Awaitable<void>
  byEmail(email: string): Awaitable<UserWithHash | null> // by emailKeys
  byId(id: string): Awaitable<UserWithHash | null>
  count(): Awaitable<number>
  list(): Awaitable<UserWithHash[]>
  // Without the password hashes, each with the number of servers it owns: the admin's list.
  listWithServerCounts(): Awaitable<(User & { servers: number })[]>
  // Accounts that are administrators and not disabled.
  countEnabledAdmins(): Awaitable<number>
  setAdmin(id: string, admin: boolean): Awaitable<void>
  // `at` null: enabled again.
  setDisabled(id: string, at: number | null): Awaitable<void>
  setPasswordHash(id: string, passwordHash: string): Awaitable<void>
  // The first part of deleting an account, with its servers marked deleted in the same
  // transaction (src/servers/purge-sql.ts): the row is marked and disabled, leaves the lists and
  // lookups, and its address is free at once. False when there is no such account.
  markDeleted(id: string, at: number): Awaitable<boolean>
  // Removes the accounts marked deleted whose servers are all removed, with their sessions and
  // reset links (the schema cascades); answers how many.
  removeDeleted(): Awaitable<number>
}

export interface SessionRow {
  id: string
  userId: string
  expiresAt: number
}

export interface SessionsRepo {
  insert(s: SessionRow & { createdAt: number }): Awaitable<void>
  // Inserts the session only if its account has this password hash and is not disabled (false
  // otherwise), waiting for a transaction that is changing either.
  insertIfCurrent(s: SessionRow & { createdAt: number }, passwordHash: string): Awaitable<boolean>
  // The session if it is neither revoked nor expired.
  active(id: string, now: number): Awaitable<SessionRow | null>
  revoke(id: string, at: number): Awaitable<boolean>
  revokeAllOf(userId: string, at: number): Awaitable<number>
  // Expired sessions are useless even to an audit; revoked ones go when they would have expired.
  purgeExpired(now: number): Awaitable<number>
}

// One-time password reset links: at most one per account, only the token's hash kept.
export interface PasswordReset {
  userId: string
  tokenHash: string
  createdAt: number
  expiresAt: number
}

export interface PasswordResetsRepo {
  // Replaces the account's previous link, if any.
  put(r: PasswordReset): Awaitable<void>
  byHash(tokenHash: string): Awaitable<PasswordReset | null>
  remove(userId: string): Awaitable<void>
  purgeExpired(now: number): Awaitable<number>
}

// The site's settings, written by the first migration (the secret that signs sessions, captcha
// challenges and dual-stack tokens).
export interface SettingsRepo {
  get(key: string): Awaitable<string | null>
}
