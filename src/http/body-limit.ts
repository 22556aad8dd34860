import { Elysia, type DocumentDecoration } from 'elysia'
import { ApiError } from './errors.ts'

export const payloadTooLarge = (limit: number) =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', `the request body is larger than ${limit} bytes, the most this endpoint accepts`)

// `maxBodyBytes: n` on a route: its body may be up to n bytes instead of http.max_body_bytes (an
// image upload, say). The value is kept in the route's documentation, where the guard below finds
// it, and the API reference shows it as `x-max-body-bytes`.
const CAP_KEY = 'x-max-body-bytes'
export const bodyLimitOption = new Elysia({ name: 'http.body-limit-option' }).macro({
  // (Elysia types `detail` as an OpenAPI operation, which says nothing of x- extensions.)
  maxBodyBytes: (bytes: number) => ({ detail: { [CAP_KEY]: bytes } as DocumentDecoration }),
})

interface RouteEntry { method: string; path: string; hooks: { detail?: unknown } }

// The routes' own limits, by "METHOD /path/:param".
export function routeBodyLimits(routes: readonly RouteEntry[]): Map<string, number> {
  const caps = new Map<string, number>()
  for (const r of routes) {
    const cap = (r.hooks.detail as Record<string, unknown> | undefined)?.[CAP_KEY]
    if (typeof cap === 'number') caps.set(`${r.method} ${r.path}`, cap)
  }
  return caps
}

// Reads a body with a running count and gives up past `limit`, so a body without Content-Length
// costs at most `limit` bytes of memory however long it goes on.
async function readAtMost(body: ReadableStream<Uint8Array>, limit: number): Promise<Blob> {
  const reader = body.getReader()
  const chunks: Uint8Array<ArrayBuffer>[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return new Blob(chunks)
    size += value.byteLength
    if (size > limit) {
      // Not awaited: the answer need not wait for the client's side of the stream.
      void reader.cancel().catch(() => {})
      throw payloadTooLarge(limit)
    }
    chunks.push(value as Uint8Array<ArrayBuffer>)
  }
}

// A route path as Elysia writes it (`/servers/:slug/banner`, `*`) as a pattern for request paths.
export function pathPattern(path: string): RegExp {
  const parts = path.split('/').map((part) => part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('/')}/?$`)
}

// Every request body is bounded before anything reads it, whatever the route (or none): this
// runs on every request, before routing. A Content-Length over the limit is refused at once,
// unread (Bun then closes the connection instead of taking the rest). Without Content-Length
// (chunked) the body is read here with a running count; a body within the limit is handed on as
// a request of those bytes, so that Elysia's own parsers read it as they read any other, and the
// request the client sent (which knows its socket, for the client address) is put back at the
// first transform hook, before any handler or limit looks for the client address.
// `routes` lists the app's routes, for their own limits; it is read again when it grows.
export function bodyLimit(defaultLimit: number, routes: () => readonly RouteEntry[]) {
  let own: { method: string; pattern: RegExp; limit: number }[] = []
  // The smallest limit of any route: a body within it is within every route's.
  let least = defaultLimit
  let known = -1
  const refresh = () => {
    const list = routes()
    if (list.length !== known) {
      own = [...routeBodyLimits(list)].map(([key, limit]) => {
        const [m, path] = key.split(' ')
        return { method: m, pattern: pathPattern(path), limit }
      })
      least = Math.min(defaultLimit, ...own.map((r) => r.limit))
      known = list.length
    }
  }
  // (After refresh().)
  const limitOf = (method: string, url: string) => {
    const path = new URL(url).pathname
    return own.find((r) => r.method === method && r.pattern.test(path))?.limit ?? defaultLimit
  }
  const sent = new WeakMap<Request, Request>()
  return new Elysia({ name: 'http.body-limit' })
    .onRequest(async (c) => {
      const request = c.request
      // Nothing reads the body of a GET (and Bun does not buffer a body nobody reads); checked
      // first, as it costs nothing, on the path of every page and API read.
      if (request.method === 'GET' || request.method === 'HEAD') return
      const length = request.headers.get('content-length')
      if (length === null && !request.body) return
      refresh()
      if (length !== null) {
        // HTTP framing ends the body at Content-Length: whatever reads it later reads no more.
        // (A small body, a vote's or a claim's, needs no look at which route it is for.)
        if (Number(length) <= least) return
        const limit = limitOf(request.method, request.url)
        if (Number(length) > limit) throw payloadTooLarge(limit)
        return
      }
      const limit = limitOf(request.method, request.url)
      const bytes = await readAtMost(request.body!, limit)
      const copy = new Request(request.url, { method: request.method, headers: request.headers, body: bytes })
      sent.set(copy, request)
      c.request = copy
    })
    // (Keyed by the copy, not by the context: a hook that hands the whole context to a function
    // makes Elysia prepare every part of it — cookies, headers, query — for every route.)
    .onTransform({ as: 'global' }, (c) => {
      const request = sent.get(c.request)
      if (request) c.request = request
    })
}

// Bun's own limit stays as an outer bound behind the guard: a body past it is refused by Bun
// before the app sees the request (a bare 413, without the contract's body), so it sits well
// above every route's limit; the guard gives the real answer. 128 MiB is Bun's default.
export const outerBodyLimit = (limits: readonly number[]) => Math.max(128 * 1024 * 1024, ...limits)
