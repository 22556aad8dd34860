// The owner API, from the browser: JSON in and out, the session cookie (HttpOnly, so the
// dashboard never sees it) sent by the browser. Every failure becomes an ApiError carrying the
// API's code, its own (English) message and, when one field is at fault, that field's name
// (error.field), or else which refusal it is (error.reason): the dashboard says it in the
// visitor's language from the code and the field or reason (i18n.js, errorSentence).
/** @import { ErrorBody } from '../types/api' */

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status; 0 when the site could not be reached
   * @param {string} code the API's error code; NETWORK or HTTP when it gave none
   * @param {string} message
   * @param {string | null} [field] the body field, query or path parameter at fault
   * @param {number | null} [retryAfter] seconds, from Retry-After (a 429)
   * @param {string | null} [reason] which refusal, where the code covers several
   */
  constructor(status, code, message, field = null, retryAfter = null, reason = null) {
    super(message)
    this.status = status
    this.code = code
    this.field = field
    this.retryAfter = retryAfter
    this.reason = reason
  }
}

/** @type {(failure: ApiError) => void} */
let onSessionLost = () => {}
// Called when an owner route answers 401: the session expired or was logged out elsewhere.
export function whenSessionLost(/** @type {(failure: ApiError) => void} */ fn) { onSessionLost = fn }

// The answer's body; the caller states its type (web/types/api.d.ts), checked against the
// OpenAPI document by test/dashboard/api-types.test.ts.
/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<unknown>}
 */
export async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  let res
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin', cache: 'no-store' })
  } catch {
    throw new ApiError(0, 'NETWORK', 'the site could not be reached: check your connection, then try again')
  }
  return answerOf(res, path)
}

// An image (or any file) as the raw body of a PUT, with its own type: the banner upload.
/**
 * @param {string} path
 * @param {Blob} file
 * @returns {Promise<unknown>}
 */
export async function putFile(path, file) {
  let res
  try {
    res = await fetch(path, {
      method: 'PUT', body: file, credentials: 'same-origin', cache: 'no-store',
      headers: { accept: 'application/json', 'content-type': file.type || 'application/octet-stream' },
    })
  } catch {
    throw new ApiError(0, 'NETWORK', 'the site could not be reached: check your connection, then try again')
  }
  return answerOf(res, path)
}

/**
 * @param {Response} res
 * @param {string} path
 * @returns {Promise<unknown>}
 */
async function answerOf(res, path) {
  /** @type {unknown} */
  let data = null
  try {
    data = await res.json()
  } catch {
    data = null
  }
  if (res.ok && data) return data
  const error = /** @type {Partial<ErrorBody> | null} */ (data)?.error
  const failure = new ApiError(res.status, error?.code ?? 'HTTP', error?.message ?? `the site answered HTTP ${res.status}`, error?.field ?? null,
    Number(res.headers.get('retry-after')) || null, error?.reason ?? null)
  if (res.status === 401 && !path.startsWith('/api/v1/auth/') && path !== '/api/v1/me') onSessionLost(failure)
  throw failure
}

export const get = (/** @type {string} */ path) => api('GET', path)
export const post = (/** @type {string} */ path, /** @type {unknown} */ body = undefined) => api('POST', path, body)
export const put = (/** @type {string} */ path, /** @type {unknown} */ body) => api('PUT', path, body)
export const patch = (/** @type {string} */ path, /** @type {unknown} */ body) => api('PATCH', path, body)
export const del = (/** @type {string} */ path) => api('DELETE', path)

export const serverPath = (/** @type {string} */ slug, rest = '') => `/api/v1/me/servers/${encodeURIComponent(slug)}${rest}`
