// Errors with the contract's shape. Services throw these; the global handler turns them into
// `{"ok":false,"error":{"code","message","field"?}}` with the status. The code lives in
// `errorCode` because an own `code` property confuses Elysia's error mapping. `field` names the
// one body field, query or path parameter at fault, so a form can show the message under it
// without reading the message.

export type ErrorCode =
  | 'INVALID_PARAMETER' | 'MISSING_KEY' | 'INVALID_KEY' | 'UNAUTHENTICATED' | 'FORBIDDEN'
  | 'NOT_FOUND' | 'CONFLICT' | 'PAYLOAD_TOO_LARGE' | 'RATE_LIMITED' | 'VOTE_TOO_SOON' | 'INTERNAL'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: ErrorCode,
    message: string,
    // Extra top-level body fields (e.g. nextVoteAt) and response headers (e.g. Retry-After).
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    readonly field?: string,
  ) {
    super(message)
  }
}

export const invalidParameter = (message: string, field?: string) => new ApiError(400, 'INVALID_PARAMETER', message, {}, {}, field)
export const notFound = (message = 'not found') => new ApiError(404, 'NOT_FOUND', message)
// `field`: the value already taken (a slug, an e-mail address).
export const conflict = (message: string, field?: string) => new ApiError(409, 'CONFLICT', message, {}, {}, field)
export const forbidden = (message = 'forbidden') => new ApiError(403, 'FORBIDDEN', message)
export const unauthenticated = (message = 'log in first') => new ApiError(401, 'UNAUTHENTICATED', message)

export function errorBody(e: ApiError) {
  const error = e.field === undefined ? { code: e.errorCode, message: e.message } : { code: e.errorCode, message: e.message, field: e.field }
  return { ok: false as const, error, ...e.extra }
}
