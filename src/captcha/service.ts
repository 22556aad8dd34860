import type { Challenge, Solution } from 'altcha-lib'
import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import { atFirstUse } from '../first-use.ts'
import { invalidParameter } from '../http/errors.ts'
import { hmacSha256 } from '../ids.ts'
import type { Scheduler } from '../jobs/scheduler.ts'
import type { CaptchaRepo } from './repo.ts'

// The self-hosted proof-of-work captcha of the vote form (ALTCHA v2 challenges, solved in the
// browser by the altcha widget). Challenges are HMAC-signed with keys derived from the site
// secret, carry a signed expiry, and each solution is accepted once.

export interface CaptchaDeps {
  config: Config
  clock: Clock
  secret: Uint8Array
  store: { captcha: CaptchaRepo }
}

// PBKDF2 iterations per attempt; `votes.captcha_difficulty` sets the number of attempts.
const ALGORITHM = 'PBKDF2/SHA-256'
const COST = 1000
// The form field the widget fills (its default name).
export const CAPTCHA_FIELD = 'altcha'

// altcha-lib is loaded at the first challenge, not at start: its PBKDF2 module brings node:crypto,
// 9-10 ms of every start, for a form that many starts never show.
const altcha = atFirstUse(() => Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/pbkdf2')]))

// One key per purpose, derived from the site secret, so that a captcha signature can never pass
// for a session or a dual-stack token.
const keys = new WeakMap<Uint8Array, { challenge: string; key: string }>()
function secretsOf(secret: Uint8Array) {
  let k = keys.get(secret)
  if (!k) {
    const derive = (label: string) => hmacSha256(secret, label).toString('hex')
    k = { challenge: derive('votelist captcha challenge'), key: derive('votelist captcha derived key') }
    keys.set(secret, k)
  }
  return k
}

export async function createVoteChallenge(deps: CaptchaDeps): Promise<Challenge> {
  const max = deps.config.votes.captcha_difficulty
  const s = secretsOf(deps.secret)
  const [{ createChallenge, randomInt }, { deriveKey }] = await altcha()
  // Deterministic mode: the server knows the answer's key (it signs it), so checking a solution
  // is one HMAC instead of a key derivation.
  return createChallenge({
    algorithm: ALGORITHM, cost: COST, deriveKey,
    counter: randomInt(max, Math.ceil(max / 2)),
    expiresAt: Math.floor((deps.clock.now() + deps.config.votes.captcha_ttl) / 1000),
    hmacSignatureSecret: s.challenge, hmacKeySignatureSecret: s.key,
  })
}

interface Payload {
  challenge: Challenge
  solution: Solution
}

function parsePayload(text: string): Payload | null {
  try {
    const p = JSON.parse(atob(text))
    const params = p?.challenge?.parameters
    if (typeof params !== 'object' || params === null || typeof p.challenge.signature !== 'string') return null
    if (typeof params.nonce !== 'string' || typeof params.expiresAt !== 'number') return null
    if (typeof p.solution !== 'object' || p.solution === null) return null
    return p as Payload
  } catch {
    return null
  }
}

const need = (why: string) => invalidParameter(`${CAPTCHA_FIELD}: ${why}`, CAPTCHA_FIELD)

// Throws INVALID_PARAMETER unless `payload` (the widget's base64 answer) solves a challenge this
// site issued, not expired, never accepted before; then records it as used.
export async function checkCaptcha(deps: CaptchaDeps, payload: string | undefined): Promise<void> {
  if (!payload) throw need('the captcha is missing: wait for the captcha check to finish, then send the form again')
  const p = parsePayload(payload)
  if (!p) throw need('the captcha answer is malformed')
  const expiresAt = p.challenge.parameters.expiresAt! * 1000
  // Checked against the site clock (altcha-lib also checks its own): the expiry is signed, so
  // it is only trusted once the signature is, below.
  const expired = need('the captcha expired: solve a new one and send the form again')
  if (expiresAt <= deps.clock.now()) throw expired
  const s = secretsOf(deps.secret)
  const [{ verifySolution }, { deriveKey }] = await altcha()
  let result
  try {
    result = await verifySolution({
      challenge: p.challenge, solution: p.solution, deriveKey,
      hmacSignatureSecret: s.challenge, hmacKeySignatureSecret: s.key,
    })
  } catch {
    throw need('the captcha answer is malformed')
  }
  if (result.expired) throw expired
  if (!result.verified) throw need('the captcha answer is not valid')
  if (!(await deps.store.captcha.use(p.challenge.parameters.nonce, expiresAt))) {
    throw need('this captcha answer was already used: solve a new one and send the form again')
  }
}

// Used solutions only matter until their challenge expires.
export function registerCaptchaWork(scheduler: Scheduler, deps: { store: { captcha: CaptchaRepo } }): void {
  scheduler.every('captcha.purge', 600_000, async (now) => { await deps.store.captcha.purgeExpired(now) }, { title: 'Used captcha solutions purge', once: true })
}
