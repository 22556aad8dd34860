import { Elysia } from 'elysia'
import type { Config } from '../config/load.ts'

// The public pages load only the site's own files: scripts and styles from /assets and /vendor
// (no inline script or style; the captcha widget's stylesheet and proof-of-work worker are
// files too), and their scripts talk to the site itself and, for dual-stack capture, to
// site.ipv4_url and site.ipv6_url. No page may be framed: a hostile page could otherwise trick
// visitors into voting from their own addresses.
export function publicPageCsp(config: Config): string {
  const connect = ["'self'", ...[config.site.ipv4_url, config.site.ipv6_url].filter((u) => u !== '').map(connectSource)]
  return [
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", `connect-src ${connect.join(' ')}`,
    "worker-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
  ].join('; ')
}

// A CSP source cannot name an IPv6 literal (browsers drop `http://[::1]:8080` as invalid): for
// such a dual-stack URL only its scheme can be allowed. Host names, the usual setup, are exact.
function connectSource(url: string): string {
  const u = new URL(url)
  return u.hostname.startsWith('[') ? u.protocol : u.origin
}

// Answers under these paths carry session state or secrets (new API keys, webhook secrets,
// Votifier tokens): no cache, shared or private, may keep them.
const SECRET_AREAS = ['/api/v1/me', '/api/v1/auth', '/api/v1/admin']
const inSecretArea = (url: string) => {
  // The path of an absolute URL, without building a URL object on every request.
  const start = url.indexOf('/', url.indexOf('://') + 3)
  const end = url.indexOf('?', start)
  const path = end < 0 ? url.slice(start) : url.slice(start, end)
  return SECRET_AREAS.some((p) => path === p || path.startsWith(`${p}/`))
}

// Headers a response object may refuse to change (Response.redirect, a fetched response) are
// changed on a copy.
function withHeaders(response: Response, apply: (headers: Headers) => void): Response {
  try {
    apply(response.headers)
    return response
  } catch {
    const copy = new Response(response.body, response)
    apply(copy.headers)
    return copy
  }
}

type Fetch = (request: Request, ...rest: unknown[]) => Response | Promise<Response>

// One place for the headers every answer needs, whoever built it: a handler's value or its own
// Response, a static file, an error or a 404. It wraps the app's whole fetch, so nothing the app
// answers leaves without passing here (only Bun's own answers to malformed requests do not). Every response: nosniff and the referrer policy. HTML: the
// page policy above unless the route set its own (the dashboard's). The JSON API and the badge
// get no frame-ancestors: they stay embeddable.
export function securityHeaders(config: Config) {
  const csp = publicPageCsp(config)
  const secure = (request: Request, response: Response) => withHeaders(response, (h) => {
    h.set('x-content-type-options', 'nosniff')
    h.set('referrer-policy', 'strict-origin-when-cross-origin')
    if (h.get('content-type')?.startsWith('text/html') && !h.has('content-security-policy')) {
      h.set('content-security-policy', csp)
      h.set('x-frame-options', 'DENY')
    }
    if (inSecretArea(request.url)) h.set('cache-control', 'no-store')
  })
  return new Elysia({ name: 'http.security-headers' })
    .wrap((handle) => {
      // Elysia types the wrapped handler loosely; it is the app's fetch.
      const fetch = handle as unknown as Fetch
      return async (request: Request, ...rest: unknown[]) => secure(request, await fetch(request, ...rest))
    })
}
