import { Elysia } from 'elysia'
import type { Config } from '../config/load.ts'

// A CSP source cannot name an IPv6 literal (browsers drop `http://[::1]:8080` as invalid): for
// such a dual-stack URL only its scheme can be allowed. Host names, the usual setup, are exact.
function connectSource(url: string): string {
  const u = new URL(url)
  return u.hostname.startsWith('[') ? u.protocol : u.origin
}

const policies = new WeakMap<Config, string>()

// The public pages load only the site's own files: scripts and styles from /assets and /vendor
// (no inline script or style; the captcha widget's stylesheet and proof-of-work worker are
// files too), and their scripts talk to the site itself and, for dual-stack capture, to
// site.ipv4_url and site.ipv6_url. No page may be framed: a hostile page could otherwise trick
// visitors into voting from their own addresses. Every HTML page of the site is built by
// htmlResponse (src/pages/layout.ts), which sends this; the dashboard has its own.
export function publicPageCsp(config: Config): string {
  let policy = policies.get(config)
  if (!policy) {
    const connect = ["'self'", ...[config.site.ipv4_url, config.site.ipv6_url].filter((u) => u !== '').map(connectSource)]
    policy = [
      "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", `connect-src ${connect.join(' ')}`,
      "worker-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].join('; ')
    policies.set(config, policy)
  }
  return policy
}

// Answers under these paths carry session state or secrets (new API keys, webhook secrets,
// Votifier tokens), or are the keyed verification API's, whose answers are only true when given (a
// proxy between a plugin and the site that kept one would report a stale hasVoted): no cache,
// shared or private, may keep them. The check's own route (check-route.ts) sends it too.
const NO_STORE_AREAS = ['/api/v1/me', '/api/v1/auth', '/api/v1/admin', '/api/v1/votes', '/api/v1/server']

function inNoStoreArea(url: string): boolean {
  // The path of an absolute URL, without building a URL object on every request.
  const start = url.indexOf('/', url.indexOf('://') + 3)
  return NO_STORE_AREAS.some((area) => {
    if (!url.startsWith(area, start)) return false
    const next = url[start + area.length]
    return next === undefined || next === '/' || next === '?'
  })
}

// The headers every answer needs, in one place, whoever builds the answer: Elysia adds its
// default headers to a handler's value, to a Response a handler returns, to static files and to
// error and 404 answers alike (a Response that sets one of these itself keeps its own).
// Every answer: nosniff and the referrer policy. Under the no-store areas: no-store. The JSON API
// and the badge get no frame-ancestors: they stay embeddable.
// (Defaults and a request hook rather than one wrapper around the app's fetch, which would see
// every finished response but costs the hot API paths about 1.3 µs a request, a tenth of a
// verification check.)
export const EVERY_ANSWER = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin' } as const

// A JSON answer the HTTP server gives itself, in front of the framework (the check, health): the
// headers of every answer and the type Elysia gives the JSON it sends.
export const JSON_ANSWER = { ...EVERY_ANSWER, 'content-type': 'application/json;charset=utf-8' } as const

export const NO_STORE = 'no-store'

export const securityHeaders = () =>
  new Elysia({ name: 'http.security-headers' })
    .headers(EVERY_ANSWER)
    .onRequest(({ request, set }) => {
      if (inNoStoreArea(request.url)) set.headers['cache-control'] = NO_STORE
    })
