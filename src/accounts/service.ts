import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import { runScriptAsync, use, type StoreWrites, type TxScript } from '../db/store.ts'
import { atFirstUse } from '../first-use.ts'
import { ApiError, conflict, invalidParameter, refusal, unauthenticated } from '../http/errors.ts'
import type { RateLimiter } from '../http/rate-limit.ts'
import { newId } from '../ids.ts'
import type { HashGate } from './hash-gate.ts'
import { knownTo, type KnownDevice } from './known-device.ts'
import { emailKey, publicUser, type User, type UsersRepo, type UserWithHash } from './repo.ts'

// Deliberately loose: one @, no spaces, a dot in the domain. Deliverability is not our business.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/

// Invisible characters (zero-width spaces, soft hyphens, joiners) and control characters: an
// address with one looks like another account's and is no one's real address.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cc}]/u

// The address as it is kept: trimmed, in Unicode NFKC (the form emailKey compares).
export function checkEmail(email: string): string {
  const e = email.trim().normalize('NFKC')
  if (e.length > 254 || !EMAIL.test(e) || INVISIBLE.test(e)) throw invalidParameter('email must be a valid e-mail address', 'email')
  return e
}

// Whitespace and invisible characters (zero-width spaces, BOM, soft hyphens) only: eight of them
// pass the length rule but are a password anyone guesses, and one a form may silently trim.
const BLANK = /^[\s\p{Default_Ignorable_Code_Point}]*$/u

// Every place a password is set (sign-up, the command line) goes through here.
export function checkPassword(password: string): void {
  if (password.length < 8 || password.length > 256) throw invalidParameter('password must be 8 to 256 characters long', 'password')
  if (BLANK.test(password)) throw invalidParameter('password must not be only whitespace: use at least one visible character', 'password')
}

export interface NewUser {
  email: string
  password: string
  admin?: boolean
}

export interface CreateUserOptions {
  // Bounds concurrent hash computations (the HTTP routes); the command line hashes directly.
  gate?: HashGate
  // Sign-up closed: only the very first account (the admin) may still be created.
  firstOnly?: boolean
}

// `field`: at a login, `email` (the account that address names is the one refused).
export const disabledAccount = (field?: string) => new ApiError(403, 'FORBIDDEN', 'this account is disabled: ask the site\'s administrator', {}, {}, field)

const registrationClosed = () => refusal('REGISTRATION_CLOSED', 'registration is closed on this site; an administrator can create your account')

export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: 'argon2id' })

interface UsersTx {
  users: UsersRepo
}

export interface CreateUserDeps {
  store: UsersTx & StoreWrites<UsersTx>
  clock: Clock
}

// Refuses an e-mail address already taken, or any account past the first when sign-up is closed.
function* checkFree(tx: UsersTx, email: string, opts: CreateUserOptions): TxScript<void> {
  if (opts.firstOnly && (yield* use(tx.users.count())) > 0) throw registrationClosed()
  if (yield* use(tx.users.byEmail(email))) throw conflict('this e-mail address is already registered', 'email')
}

// The first account ever created is the admin, whatever was asked.
export const createUser = async (deps: CreateUserDeps, input: NewUser, opts: CreateUserOptions = {}): Promise<User> =>
  publicUser(await addUser(deps, input, opts))

async function addUser(deps: CreateUserDeps, input: NewUser, opts: CreateUserOptions): Promise<UserWithHash> {
  const email = checkEmail(input.email)
  checkPassword(input.password)
  // Checked before hashing (cheap refusals) and again inside the transaction (races).
  await runScriptAsync(checkFree(deps.store, email, opts))
  const passwordHash = await (opts.gate ? opts.gate.run(() => hashPassword(input.password)) : hashPassword(input.password))
  return deps.store.write(function* (tx) {
    yield* use(tx.users.serialiseCreation())
    yield* checkFree(tx, email, opts)
    const first = (yield* use(tx.users.count())) === 0
    const user = { id: newId(), email, passwordHash, isAdmin: input.admin === true || first, disabled: false, createdAt: deps.clock.now() }
    yield* use(tx.users.insert(user))
    return user
  })
}

export interface LoginDeps extends CreateUserDeps {
  config: Config
  // The site's secret: it signs the device cookie and keys its credential stamp.
  secret: Uint8Array
  hashGate: HashGate
  limits: { failedLogins: RateLimiter }
}

export const FAILED_LOGIN_WINDOW_MS = 15 * 60_000

// An account just logged in to (signed up, logged in, its password reset), with the password hash
// that was checked or set: the session is written only while the account still has it
// (startSession), and the browser's new device cookie carries its stamp (known-device.ts).
export interface Entry {
  user: User
  passwordHash: string
}

export const entryOf = (user: UserWithHash): Entry => ({ user: publicUser(user), passwordHash: user.passwordHash })

export const registerUser = async (deps: LoginDeps, input: { email: string; password: string }) =>
  entryOf(await addUser(deps, input, { gate: deps.hashGate, firstOnly: !deps.config.accounts.open_registration }))

// Unknown e-mail addresses are verified against this hash too, so that the answer time does not
// tell which addresses have an account. Made at the first login for an unknown address.
const dummyHash = atFirstUse(() => hashPassword(crypto.randomUUID()))

// Logins under way per account in this process, by failed-login limiter: each is counted against
// the account's remaining failures before its hash is checked, so that a burst of guesses sent
// at once is not all checked against the same "not locked yet" answer. (A lock check and the
// failure it may add are apart by a whole hash: without this, 20 guesses in flight together
// were all tried with a limit of 3.)
const underWay = new WeakMap<RateLimiter, Map<string, number>>()

const tooManyFailures = (retryAfterSeconds: number) =>
  new ApiError(429, 'RATE_LIMITED', `too many failed logins for this account; retry in ${retryAfterSeconds} s`, {},
    { 'Retry-After': String(retryAfterSeconds) })

// The account behind these credentials. Failed attempts count per account (whatever the client
// address, so a botnet cannot spread a guessing attack); past the limit the account refuses
// logins with 429 before any hash is spent, until the oldest failure leaves the window.
// A browser that logged in to this account since its password was last set
// (src/accounts/known-device.ts) has a lock of its own instead.
export async function logIn(deps: LoginDeps, email: string, password: string, device: KnownDevice | null = null): Promise<Entry> {
  const written = email.trim()
  // Every form of one address counts against the same account.
  const account = emailKey(written)
  const user = await deps.store.users.byEmail(written)
  const key = device && knownTo(deps.secret, device, account, user?.passwordHash) ? `device:${device.id}` : account
  const limiter = deps.limits.failedLogins
  let pending = underWay.get(limiter)
  if (!pending) underWay.set(limiter, (pending = new Map()))
  // Registered before the lock is read (an await), so that attempts arriving meanwhile count it.
  const ahead = pending.get(key) ?? 0
  pending.set(key, ahead + 1)
  try {
    const lock = await limiter.peek(key, deps.clock.now())
    if (!lock.allowed) throw tooManyFailures(lock.retryAfterSeconds)
    // The attempts already under way may use up what is left: this one waits for their outcome.
    if (ahead >= lock.remaining) throw tooManyFailures(1)
    const valid = await deps.hashGate.run(async () => {
      const hash = user?.passwordHash ?? (await dummyHash())
      return Bun.password.verify(password, hash)
    })
    if (!user || !valid) {
      await limiter.hit(key, deps.clock.now())
      throw unauthenticated('wrong e-mail address or password')
    }
    // Said only to whoever knows the password.
    if (user.disabled) throw disabledAccount('email')
    return entryOf(user)
  } finally {
    const left = pending.get(key)! - 1
    if (left > 0) pending.set(key, left)
    else pending.delete(key)
  }
}
