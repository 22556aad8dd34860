// Errors with the contract's shape. Services throw these; the global handler turns them into
// `{"ok":false,"error":{"code","message"}}` with the status. The code lives in `errorCode`
// because an own `code` property confuses Elysia's error mapping.

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
  ) {
    super(message)
  }
}

export const invalidParameter = (message: string) => new ApiError(400, 'INVALID_PARAMETER', message)
export const notFound = (message = 'not found') => new ApiError(404, 'NOT_FOUND', message)
export const conflict = (message: string) => new ApiError(409, 'CONFLICT', message)
export const forbidden = (message = 'forbidden') => new ApiError(403, 'FORBIDDEN', message)
export const unauthenticated = (message = 'log in first') => new ApiError(401, 'UNAUTHENTICATED', message)

export function errorBody(e: ApiError) {
  return { ok: false as const, error: { code: e.errorCode, message: e.message }, ...e.extra }
}
