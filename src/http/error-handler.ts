import { Elysia, ValidationError } from 'elysia'
import { loggableUrl, type Logger } from '../log.ts'
import { pathPattern } from './body-limit.ts'
import { ApiError, errorBody, invalidParameter } from './errors.ts'
import { NOT_AN_OBJECT } from './strict-body.ts'
import { describeValueError, fieldOfPath, innermost } from './validation.ts'

const wantsText = (request: Request) => new URL(request.url).searchParams.get('format') === 'text'

function respond(request: Request, e: ApiError): Response {
  const headers = new Headers(e.headers)
  if (wantsText(request)) {
    headers.set('content-type', 'text/plain; charset=utf-8')
    return new Response(`${e.errorCode}: ${e.message}\n`, { status: e.status, headers })
  }
  headers.set('content-type', 'application/json')
  return new Response(JSON.stringify(errorBody(e)), { status: e.status, headers })
}

// The only error mapping in the app: every failure leaves as the contract's error body (or a
// one-line text with format=text), and nothing unexpected ever shows a stack.
// A browser asking for a page (not under /api/) gets the site's HTML page for the error instead
// of the JSON body: an unknown page, or a form post refused before its handler ran (a body too
// large, unparsable). `page` is handed in so this module stays free of page rendering.
const wantsPage = (request: Request) =>
  !new URL(request.url).pathname.startsWith('/api/') && (request.headers.get('accept') ?? '').includes('text/html')

const FIELD_SOURCES = new Set(['body', 'query', 'params'])

interface Route { method: string; path: string }
type Routes = () => readonly Route[]
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

// A method that an API path does not take: a plugin sending GET to the claim is told to POST,
// rather than "no such path" for a path that exists. The routes' patterns are made at the first
// such request, and again when the routes change (a test mounts its own).
function methodCheck(routes: Routes) {
  let made: { length: number; list: { method: string; pattern: RegExp }[] } | null = null
  return (request: Request): ApiError | undefined => {
    const path = new URL(request.url).pathname
    if (!path.startsWith('/api/')) return undefined
    const all = routes()
    if (made?.length !== all.length) made = { length: all.length, list: all.map((r) => ({ method: r.method, pattern: pathPattern(r.path) })) }
    const taken = new Set(made.list.filter((r) => r.pattern.test(path)).map((r) => r.method))
    // Bun answers HEAD wherever GET is taken.
    if (taken.has('GET')) taken.add('HEAD')
    if (taken.size === 0 || taken.has(request.method)) return undefined
    const allow = METHOD_ORDER.filter((m) => taken.has(m))
    return new ApiError(405, 'METHOD_NOT_ALLOWED', `${path} takes ${allow.join(' or ')}, not ${request.method}`, {}, { allow: allow.join(', ') })
  }
}

function toApiError(code: unknown, error: unknown, request: Request, log: Logger, notAllowed?: (request: Request) => ApiError | undefined): ApiError {
  if (error instanceof ApiError) return error
  if (error instanceof ValidationError) {
    const first = error.all[0] && innermost(error.all[0])
    if (!first || !('path' in first)) return invalidParameter(`invalid ${error.type}`)
    // A header or a cookie is not a field a form could show the message under.
    const field = FIELD_SOURCES.has(error.type) ? fieldOfPath(first.path) : undefined
    // A path segment Elysia could not decode (not percent-encoded UTF-8) reaches the schema as no
    // value at all: no slug or id is written so, so nothing is at that path.
    // No body at all (or not an object) where an object is required: said as the routes that
    // refuse unknown fields say it, rather than "body: expected object".
    if (error.type === 'body' && first.path === '' && (typeof first.value !== 'object' || first.value === null || Array.isArray(first.value))) {
      return invalidParameter(NOT_AN_OBJECT)
    }
    if (error.type === 'params' && typeof first.value !== 'string') {
      return new ApiError(404, 'NOT_FOUND', `${field ?? 'the path'} is not percent-encoded UTF-8: nothing has it`, {}, {}, field)
    }
    return invalidParameter(describeValueError(first, error.type), field)
  }
  if (code === 'PARSE') return new ApiError(400, 'INVALID_PARAMETER', 'the request body could not be parsed')
  if (code === 'NOT_FOUND') return notAllowed?.(request) ?? new ApiError(404, 'NOT_FOUND', wantsPage(request) ? 'this page does not exist' : 'no such path')
  log.error('unhandled error', { method: request.method, url: loggableUrl(request.url), error })
  return new ApiError(500, 'INTERNAL', 'internal error')
}

// The answer to an error of an API request handled outside Elysia's routing (the check
// endpoint's own route: src/verification/check-route.ts), as the handler below writes it.
export const apiErrorAnswer = (log: Logger, request: Request, error: unknown): Response => respond(request, toApiError(undefined, error, request, log))

// `routes`: the app's routes, to tell a method a path does not take from a path that is unknown.
export function errorHandler(log: Logger, page?: (e: ApiError, request: Request) => Response, routes?: Routes) {
  const notAllowed = routes && methodCheck(routes)
  return new Elysia({ name: 'http.errors' }).onError({ as: 'global' }, ({ code, error, request }) => {
    const e = toApiError(code, error, request, log, notAllowed)
    return page && wantsPage(request) ? page(e, request) : respond(request, e)
  })
}
