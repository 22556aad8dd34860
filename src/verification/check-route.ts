import { TypeCompiler } from '@sinclair/typebox/compiler'
import { then, type Awaitable } from '../db/store.ts'
import { apiErrorAnswer } from '../http/error-handler.ts'
import { enforceRateLimit } from '../http/rate-limit.ts'
import { toInteger } from '../http/schema.ts'
import { EVERY_ANSWER } from '../http/security-headers.ts'
import type { Logger } from '../log.ts'
import { presentedKey, type KeyedDeps } from '../keys/api-key.ts'
import type { LiveKey } from '../keys/repo.ts'
import { CheckQuery } from './schema.ts'
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
const validQuery = TypeCompiler.Compile(CheckQuery)
const JSON_TYPE = 'application/json;charset=utf-8'
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
  return validQuery.Check(q) ? q : null
}

function answer(q: Query, headers: Record<string, string>, r: { hasVoted: boolean }): Response {
  if (q.format === 'text') return new Response(r.hasVoted ? '1' : '0', { headers: { ...EVERY_ANSWER, ...headers, 'content-type': TEXT_TYPE } })
  return new Response(JSON.stringify(r), { headers: { ...EVERY_ANSWER, ...headers, 'content-type': JSON_TYPE } })
}

export function checkRoute(deps: VerificationDeps & KeyedDeps & { log: Logger }, framework: (request: Request) => Awaitable<Response>) {
  // Past the checks that hand a request over: count it, query, answer; a refusal by the limit or
  // a failing database answers as the framework's error handler does.
  const serve = (request: Request, q: Query, key: LiveKey, plan: CheckPlan, now: number): Awaitable<Response> => {
    const failed = (e: unknown) => {
      const res = apiErrorAnswer(deps.log, request, e)
      for (const [name, value] of Object.entries(EVERY_ANSWER)) if (!res.headers.has(name)) res.headers.set(name, value)
      return res
    }
    try {
      const r = then(enforceRateLimit(deps.limits.keyed, key.id, now), (headers) => then(runCheck(deps, plan), (found) => answer(q, headers, found)))
      return r instanceof Promise ? r.catch(failed) : r
    } catch (e) {
      return failed(e)
    }
  }
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
    const r = then(deps.keyCache.resolve(secret, now), (key) => {
      if (!key) return framework(request)
      let plan: CheckPlan
      try {
        plan = planCheck(deps, key, { pseudo: q.pseudo, ip: q.ip, window: toInteger(q.window), duration: toInteger(q.duration) }, now)
      } catch {
        return framework(request)
      }
      return serve(request, q, key, plan, now)
    })
    // A key lookup that failed: the framework's route tries again and answers whatever it meets.
    return r instanceof Promise ? r.catch(() => framework(request)) : r
  }
}
