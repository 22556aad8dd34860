// The owner API, from the browser: JSON in and out, the session cookie (HttpOnly, so the
// dashboard never sees it) sent by the browser. Every failure becomes an ApiError carrying the
// API's own message, which names the field at fault.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message)
    this.status = status
    this.code = code
  }
}

let onSessionLost = () => {}
// Called when an owner route answers 401: the session expired or was logged out elsewhere.
export function whenSessionLost(fn) { onSessionLost = fn }

export async function api(method, path, body) {
  const headers = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  let res
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin', cache: 'no-store' })
  } catch {
    throw new ApiError(0, 'NETWORK', 'the site could not be reached: check your connection, then try again')
  }
  let data = null
  try {
    data = await res.json()
  } catch {
    data = null
  }
  if (res.ok && data) return data
  const error = data?.error
  const failure = new ApiError(res.status, error?.code ?? 'HTTP', error?.message ?? `the site answered HTTP ${res.status}`)
  if (res.status === 401 && !path.startsWith('/api/v1/auth/') && path !== '/api/v1/me') onSessionLost(failure)
  throw failure
}

export const get = (path) => api('GET', path)
export const post = (path, body) => api('POST', path, body)
export const put = (path, body) => api('PUT', path, body)
export const patch = (path, body) => api('PATCH', path, body)
export const del = (path) => api('DELETE', path)

export const serverPath = (slug, rest = '') => `/api/v1/me/servers/${encodeURIComponent(slug)}${rest}`
