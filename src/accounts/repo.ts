import type { Awaitable } from '../db/store.ts'

export interface User {
  id: string
  email: string
  isAdmin: boolean
  createdAt: number
}
export interface UserWithHash extends User {
  passwordHash: string
}

export const publicUser = ({ passwordHash: _h, ...u }: UserWithHash): User => u

export interface UsersRepo {
  insert(u: UserWithHash): Awaitable<void>
  byEmail(email: string): Awaitable<UserWithHash | null> // case-insensitive
  byId(id: string): Awaitable<UserWithHash | null>
  count(): Awaitable<number>
  list(): Awaitable<UserWithHash[]>
  // Without the password hashes, each with the number of servers it owns: the admin's list.
  listWithServerCounts(): Awaitable<(User & { servers: number })[]>
}

export interface SessionRow {
  id: string
  userId: string
  expiresAt: number
}

export interface SessionsRepo {
  insert(s: SessionRow & { createdAt: number }): Awaitable<void>
  // The session if it is neither revoked nor expired.
  active(id: string, now: number): Awaitable<SessionRow | null>
  revoke(id: string, at: number): Awaitable<boolean>
  revokeAllOf(userId: string, at: number): Awaitable<number>
  // Expired sessions are useless even to an audit; revoked ones go when they would have expired.
  purgeExpired(now: number): Awaitable<number>
}

// The site's settings, written by the first migration (the secret that signs sessions, captcha
// challenges and dual-stack tokens).
export interface SettingsRepo {
  get(key: string): Awaitable<string | null>
}
