import type { Database } from 'bun:sqlite'
import type { Clock } from '../clock.ts'
import { writeTx } from '../db/open.ts'
import { conflict, invalidParameter } from '../http/errors.ts'
import { newId } from '../ids.ts'
import { publicUser, type User, type UsersRepo } from './repo.ts'

// Deliberately loose: one @, no spaces, a dot in the domain. Deliverability is not our business.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/

export function checkEmail(email: string): string {
  const e = email.trim()
  if (e.length > 254 || !EMAIL.test(e)) throw invalidParameter('email must be a valid e-mail address')
  return e
}

export function checkPassword(password: string): void {
  if (password.length < 8 || password.length > 256) throw invalidParameter('password must be 8 to 256 characters long')
}

export interface NewUser {
  email: string
  password: string
  admin?: boolean
}

// The first account ever created is the admin, whatever was asked.
export async function createUser(db: Database, users: UsersRepo, clock: Clock, input: NewUser): Promise<User> {
  const email = checkEmail(input.email)
  checkPassword(input.password)
  if (users.byEmail(email)) throw conflict('this e-mail address is already registered')
  const passwordHash = await Bun.password.hash(input.password, { algorithm: 'argon2id' })
  return writeTx(db, () => {
    if (users.byEmail(email)) throw conflict('this e-mail address is already registered')
    const user = { id: newId(), email, passwordHash, isAdmin: input.admin === true || users.count() === 0, createdAt: clock.now() }
    users.insert(user)
    return publicUser(user)
  })
}
