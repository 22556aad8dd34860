import { Elysia, ValidationError } from 'elysia'
import type { Logger } from '../log.ts'
import { ApiError, errorBody } from './errors.ts'
import { describeValueError } from './validation.ts'

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
// A browser asking for an unknown page (not under /api/) gets the site's HTML 404 page instead
// of the JSON body; `notFoundPage` is handed in so this module stays free of page rendering.
const wantsPage = (request: Request) =>
  !new URL(request.url).pathname.startsWith('/api/') && (request.headers.get('accept') ?? '').includes('text/html')

export const errorHandler = (log: Logger, notFoundPage?: () => Response) =>
  new Elysia({ name: 'http.errors' }).onError({ as: 'global' }, ({ code, error, request }) => {
    if (error instanceof ApiError) return respond(request, error)
    if (error instanceof ValidationError) {
      const first = error.all[0]
      const message = first && 'path' in first ? describeValueError(first, error.type) : `invalid ${error.type}`
      return respond(request, new ApiError(400, 'INVALID_PARAMETER', message))
    }
    if (code === 'PARSE') return respond(request, new ApiError(400, 'INVALID_PARAMETER', 'the request body could not be parsed'))
    if (code === 'NOT_FOUND') {
      if (notFoundPage && wantsPage(request)) return notFoundPage()
      return respond(request, new ApiError(404, 'NOT_FOUND', 'no such path'))
    }
    log.error('unhandled error', { method: request.method, url: request.url, error })
    return respond(request, new ApiError(500, 'INTERNAL', 'internal error'))
  })
