import { Elysia, NotFoundError } from 'elysia'
import { join } from 'node:path'

export interface StaticFilesOptions {
  // Unique per mount (Elysia deduplicates plugins by name).
  name: string
  // The folder (embedded in the binary, or the checkout's in development) and its URL prefix.
  dir: string
  prefix: string
  cacheControl: string
  // Sent with every answer of these files, 304s included.
  headers?: Record<string, string>
  // Files of the folder that are never served (matched against the file's path).
  ignore?: RegExp
}

// A path below the prefix: names of letters, digits, dots, dashes and underscores, one slash
// between them, none of them "." or ".."; one trailing slash is tolerated, as the router does
// for every route. Anything else is no file of the folder.
const FILE_PATH = /^(?!\.\.?(?:\/|$))(?!.*\/\.\.?(?:\/|$))[\w.-]+(?:\/[\w.-]+)*\/?$/

// The files of a folder at `prefix`/…, answered from the folder when asked for: nothing is read
// or hashed at start. An answer is the file with its type, the cache policy, `headers` and an
// ETag (MD5 of the content, base64), made at the file's first request and kept; If-None-Match
// with that ETag (or *) answers 304 with `headers` only, unless the request says no-cache or
// no-store. A path that is no file of the folder is 404, as an unknown path.
export function staticFiles(o: StaticFilesOptions) {
  const etags = new Map<string, string>()
  async function etagOf(relative: string): Promise<string | null> {
    const known = etags.get(relative)
    if (known !== undefined) return known
    const path = join(o.dir, relative)
    if (o.ignore?.test(path)) return null
    const file = Bun.file(path)
    if (!(await file.exists())) return null
    const etag = new Bun.CryptoHasher('md5').update(await file.arrayBuffer()).digest('base64')
    etags.set(relative, etag)
    return etag
  }
  return new Elysia({ name: o.name })
    .get(`${o.prefix}/*`, async ({ request }) => {
      // The path as sent, not decoded: a file is found under its own name only.
      const asked = new URL(request.url).pathname.slice(o.prefix.length + 1)
      if (!FILE_PATH.test(asked)) throw new NotFoundError()
      const relative = asked.endsWith('/') ? asked.slice(0, -1) : asked
      const etag = await etagOf(relative)
      if (etag === null) throw new NotFoundError()
      const h = request.headers
      const match = h.get('if-none-match')
      if (match !== null && !/no-cache|no-store/.test(h.get('cache-control') ?? '') && (match === '*' || match === etag)) {
        return new Response(null, { status: 304, headers: o.headers })
      }
      return new Response(Bun.file(join(o.dir, relative)), { headers: { 'cache-control': o.cacheControl, ...o.headers, etag } })
    }, { detail: { hide: true } })
}
