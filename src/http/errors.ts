// Errors with the contract's shape. Services throw these; the global handler turns them into
// `{"ok":false,"error":{"code","message","field"?}}` with the status. The code lives in
// `errorCode` because an own `code` property confuses Elysia's error mapping. `field` names the
// one body field, query or path parameter at fault, so a form can show the message under it
// without reading the message. `reason` says which refusal it is where one code covers several
// and no field is at fault (see REASONS).

export type ErrorCode =
  | 'INVALID_PARAMETER' | 'MISSING_KEY' | 'INVALID_KEY' | 'UNAUTHENTICATED' | 'FORBIDDEN'
  | 'NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'CONFLICT' | 'PAYLOAD_TOO_LARGE' | 'RATE_LIMITED' | 'VOTE_TOO_SOON' | 'INTERNAL'

export class ApiError extends Error {
  // The values a parameter may take, where they are a closed list the message names (notOneOf):
  // a reader's language names them too (web/assets/translate.js, errorText). Not in the body.
  allowed?: readonly string[]

  constructor(
    readonly status: number,
    readonly errorCode: ErrorCode,
    message: string,
    // Extra top-level body fields (e.g. nextVoteAt) and response headers (e.g. Retry-After).
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    readonly field?: string,
    readonly reason?: Reason,
  ) {
    super(message)
  }
}

// The refusals a client may want to say in its own words, each under its code: `error.reason` in
// the body. The message stays the whole English sentence, with the details (addresses, a MOTD);
// the dashboard and the pages say the reason in the reader's language (web/assets/translate.js,
// errorText). A reason is never given with a field.
export const REASONS = {
  // 403 FORBIDDEN
  CROSS_SITE: 'FORBIDDEN', // from another site's page (Origin, Sec-Fetch-Site)
  ADMINS_ONLY: 'FORBIDDEN', // an administrator's right (the admin API, hiding a server)
  NOT_YOURS: 'FORBIDDEN', // another account's server
  REGISTRATION_CLOSED: 'FORBIDDEN',
  // 409 CONFLICT
  LAST_ADMIN: 'CONFLICT', // the only administrator who can log in would be disabled, demoted or deleted
  OWN_ACCOUNT: 'CONFLICT', // an administrator deleting their own account
  SQLITE_ONLY: 'CONFLICT', // a backup of a site on PostgreSQL
  NO_CHANNEL: 'CONFLICT', // a test vote with no channel configured
  TEST_NOT_RESENT: 'CONFLICT', // redelivering a test
  ATTEMPT_IN_PROGRESS: 'CONFLICT', // redelivering while an attempt runs (or, raced, is queued)
  ALREADY_QUEUED: 'CONFLICT', // redelivering a delivery whose series' first attempt has not begun
  CHANNEL_REMOVED: 'CONFLICT', // redelivering to a channel no longer configured
  MOTD_UNREADABLE: 'CONFLICT', // verification: the server did not answer
  TOKEN_NOT_IN_MOTD: 'CONFLICT', // verification: the token is not in the MOTD read
  ADDRESS_CHANGED: 'CONFLICT', // verification: the server's address changed meanwhile
} as const satisfies Record<string, ErrorCode>
export type Reason = keyof typeof REASONS

const STATUS_OF: Partial<Record<ErrorCode, number>> = { FORBIDDEN: 403, CONFLICT: 409 }
export const refusal = (reason: Reason, message: string, extra: Record<string, unknown> = {}) =>
  new ApiError(STATUS_OF[REASONS[reason]]!, REASONS[reason], message, extra, {}, undefined, reason)

export const invalidParameter = (message: string, field?: string) => new ApiError(400, 'INVALID_PARAMETER', message, {}, {}, field)
export const notOneOf = (field: string, allowed: readonly string[]) =>
  Object.assign(invalidParameter(`${field} must be one of: ${allowed.join(', ')}`, field), { allowed })
export const notFound = (message = 'not found') => new ApiError(404, 'NOT_FOUND', message)
// `field`: the value already taken (a slug, an e-mail address).
export const conflict = (message: string, field?: string) => new ApiError(409, 'CONFLICT', message, {}, {}, field)
export const unauthenticated = (message = 'log in first') => new ApiError(401, 'UNAUTHENTICATED', message)

export function errorBody(e: ApiError) {
  const error = e.field !== undefined ? { code: e.errorCode, message: e.message, field: e.field }
    : e.reason !== undefined ? { code: e.errorCode, message: e.message, reason: e.reason } : { code: e.errorCode, message: e.message }
  return { ok: false as const, error, ...e.extra }
}
