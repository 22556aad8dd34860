import { TypeCompiler } from '@sinclair/typebox/compiler'
import type { Awaitable } from '../db/store.ts'
import { apiErrorAnswer } from '../http/error-handler.ts'
import { refuseIfLimited, withRateLimitHeaders, type RateDecision } from '../http/rate-limit.ts'
import { toInteger } from '../http/schema.ts'
import { EVERY_ANSWER, JSON_ANSWER, NO_STORE } from '../http/security-headers.ts'
import type { Logger } from '../log.ts'
import { presentedKey, type KeyedDeps } from '../keys/api-key.ts'
import type { LiveKey } from '../keys/repo.ts'
import { CheckQuery, type CheckResult } from './schema.ts'
import { planCheck, runCheck, type CheckPlan, type VerificationDeps } from './service.ts'

// GET /api/v1/votes/check as a route of the HTTP server itself, in front of the framework: the
// endpoint every plugin polls, often several times a second, and the one whose cost per request
// decides how many servers a small machine can serve. It answers the usual request itself — a
// valid query, a known key — with exactly what the framework's route answers (the same
// functions: key, limiter, plan, query, error body; the same headers), and hands every other
// request to the framework's route unchanged (a missing or unknown key, an invalid or unusual
// query), which then answers it as it always does. It decides that before counting the request
// against the key's limit, so a handed-over request is counted once, there.
// The framework's route stays the reference: tests hold this one to it, answer for answer.

const PARAMETERS = new Set(Object.keys(CheckQuery.properties))
// Compiled at the first check rather than at start (a few ms of every start).
let validQuery: ReturnType<typeof TypeCompiler.Compile<typeof CheckQuery>> | undefined
const TEXT_TYPE = 'text/plain; charset=utf-8'

type Query = Record<string, string>

// The query as the route's schema sees it, or null when it is one this route leaves to the
// framework: any escape (`%`, `+`) so no decoding can differ, a repeated or unknown parameter.
function plainQuery(url: string): Query | null {
  const start = url.indexOf('?')
  const q: Query = {}
  if (start < 0) return q
  const text = url.slice(start + 1)
  if (text.includes('%') || text.includes('+') || text.includes('#')) return null
  for (const pair of text.split('&')) {
    if (pair === '') continue
    const eq = pair.indexOf('=')
    const name = eq < 0 ? pair : pair.slice(0, eq)
    if (!PARAMETERS.has(name) || name in q) return null
    q[name] = eq < 0 ? '' : pair.slice(eq + 1)
  }
  return (validQuery ??= TypeCompiler.Compile(CheckQuery)).Check(q) ? q : null
}

// The answer's headers: the security headers, no-store (as the framework sends under
// /api/v1/votes) and the type, prepared once, with the RateLimit values set for each answer (see
// withRateLimitHeaders).
const OWN_ANSWER = { ...EVERY_ANSWER, 'cache-control': NO_STORE }
const JSON_HEADERS = new Headers({ ...JSON_ANSWER, ...OWN_ANSWER })
const TEXT_HEADERS = new Headers({ ...OWN_ANSWER, 'content-type': TEXT_TYPE })

function answer(q: Query, d: RateDecision, r: CheckResult): Response {
  if (q.format === 'text') return new Response(r.hasVoted ? '1' : '0', { headers: withRateLimitHeaders(TEXT_HEADERS, d) })
  return new Response(JSON.stringify(r), { headers: withRateLimitHeaders(JSON_HEADERS, d) })
}

export function checkRoute(deps: VerificationDeps & KeyedDeps & { log: Logger }, framework: (request: Request) => Awaitable<Response>) {
  // An exception past the checks that hand a request over (a refusal by the limit, a failing
  // database) answers as the framework's error handler does.
  const failed = (request: Request, e: unknown) => {
    const res = apiErrorAnswer(deps.log, request, e)
    for (const [name, value] of Object.entries(OWN_ANSWER)) if (!res.headers.has(name)) res.headers.set(name, value)
    return res
  }
  // Counted, queried, answered; every step is a plain value on SQLite with an in-memory limiter
  // and a promise only where a store or a shared limiter answers one. The functions a request
  // runs through create no closure on that plain path: the ones a promise needs are made by the
  // `after*` functions, called only then (a function that creates one, even on a branch not
  // taken, allocates its scope at every call).
  const query = (q: Query, plan: CheckPlan, d: RateDecision): Awaitable<Response> => {
    refuseIfLimited(d)
    const found = runCheck(deps, plan)
    return found instanceof Promise ? afterQuery(found, q, d) : answer(q, d, found)
  }
  const afterQuery = (found: Promise<CheckResult>, q: Query, d: RateDecision) => found.then((r) => answer(q, d, r))
  const afterLimit = (d: Promise<RateDecision>, q: Query, plan: CheckPlan) => d.then((d) => query(q, plan, d))
  const caught = (r: Promise<Response>, request: Request) => r.catch((e) => failed(request, e))
  const serve = (request: Request, q: Query, key: LiveKey, now: number): Awaitable<Response> => {
    let plan: CheckPlan
    try {
      plan = planCheck(deps, key, { pseudo: q.pseudo, ip: q.ip, window: toInteger(q.window), duration: toInteger(q.duration) }, now)
    } catch {
      return framework(request)
    }
    try {
      const d = deps.limits.keyed.hit(key.id, now)
      const r = d instanceof Promise ? afterLimit(d, q, plan) : query(q, plan, d)
      return r instanceof Promise ? caught(r, request) : r
    } catch (e) {
      return failed(request, e)
    }
  }
  // A key lookup that failed: the framework's route tries again and answers whatever it meets.
  const afterKey = (key: Promise<LiveKey | null>, request: Request, q: Query, now: number) =>
    key.then((key) => (key ? serve(request, q, key, now) : framework(request)), () => framework(request))
  return (request: Request): Awaitable<Response> => {
    const q = plainQuery(request.url)
    if (q === null) return framework(request)
    let secret: string | null
    try {
      secret = presentedKey(request, q.key)
    } catch {
      return framework(request)
    }
    if (secret === null) return framework(request)
    const now = deps.clock.now()
    const key = deps.keyCache.resolve(secret, now)
    if (key instanceof Promise) return afterKey(key, request, q, now)
    return key ? serve(request, q, key, now) : framework(request)
  }
}
