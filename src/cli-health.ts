import type { Config } from './config/load.ts'
import { nodeNet } from './lazy-modules.ts'

// `votelist health`: asks the site the configuration describes for GET /api/v1/health, as a
// monitor would, on the address serve listens on (a wildcard address through loopback). The site
// answers only once its migrations have run and it listens, so this is how install.sh knows an
// upgraded service is up, not merely started. Prints the version that answers; 1 and one line
// saying why when nothing (or something else) answers.

const TIMEOUT_MS = 5000
const MAX_BODY = 64 * 1024

// Where to ask: 0.0.0.0 and :: (every address) are reached through loopback; any other host is
// the one address (or name) serve listens on.
export function healthUrl(host: string, port: number): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  const ask = bare === '0.0.0.0' ? '127.0.0.1' : bare === '::' ? '::1' : bare
  return `http://${ask.includes(':') ? `[${ask}]` : ask}:${port}/api/v1/health`
}

export async function health(cfg: Config, io: { out(line: string): void; err(line: string): void }): Promise<number> {
  const { host, port } = cfg.http
  if (port === 0) {
    io.err(`votelist health: http.port is 0 in ${cfg.source ?? 'the built-in defaults'}: serve picks a free port at each start (logged in its "votelist listening" line), so there is no address to ask; set a port (http.port)`)
    return 78
  }
  const url = healthUrl(host, port)
  let answer: { status: number; body: string }
  try {
    answer = await get(url)
  } catch (e) {
    io.err(`votelist health: no answer from ${url}: ${why(e)}`)
    return 1
  }
  let body: unknown = null
  try { body = JSON.parse(answer.body) } catch { /* not JSON: said below */ }
  const version = (body as { version?: unknown } | null)?.version
  if (answer.status !== 200 || (body as { ok?: unknown } | null)?.ok !== true || typeof version !== 'string') {
    io.err(`votelist health: ${url} answered HTTP ${answer.status} ${JSON.stringify(answer.body.slice(0, 80))}, not votelist's {"ok":true,"version":"…"}: another program listens on ${host}:${port}? (http.host / http.port)`)
    return 1
  }
  io.out(version)
  return 0
}

function why(e: unknown): string {
  const code = (e as { code?: unknown }).code
  if (code === 'ECONNREFUSED') return 'connection refused: the site is stopped, still starting (it migrates the database before it listens), or listens elsewhere (http.host / http.port)'
  if (code === 'TIMEOUT') return `no answer within ${TIMEOUT_MS / 1000} s`
  return (e as Error).message ?? String(e)
}

// One HTTP/1.1 GET over a plain socket (node:net, which the site loads anyway) rather than
// fetch, which would go through an http_proxy from the environment, even to loopback, and ask the
// proxy instead of the site; and rather than node:http, whose mere presence in the compiled binary
// took 1 MB of the site's idle memory.
function get(url: string): Promise<{ status: number; body: string }> {
  const { hostname, port, pathname } = new URL(url)
  const host = hostname.replace(/^\[(.*)\]$/, '$1')
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const socket = nodeNet().connect({ host, port: Number(port) }, () => {
      socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`)
    })
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })))
    socket.on('data', (chunk: Buffer) => {
      if (size < MAX_BODY) chunks.push(chunk)
      size += chunk.length
    })
    socket.on('error', reject)
    socket.on('end', () => {
      const answer = Buffer.concat(chunks).toString('utf8')
      const split = answer.indexOf('\r\n\r\n')
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0)
      if (split < 0 || !status) return reject(new Error(`not an HTTP answer: ${JSON.stringify(answer.slice(0, 80))}`))
      const head = answer.slice(0, split)
      const body = answer.slice(split + 4)
      resolve({ status, body: /^transfer-encoding:\s*chunked\s*$/im.test(head) ? unchunked(body) : body })
    })
  })
}

// A chunked body's data (a site behind something that re-encodes it).
function unchunked(body: string): string {
  let out = ''
  for (let at = 0; ;) {
    const line = body.indexOf('\r\n', at)
    const length = line < 0 ? 0 : parseInt(body.slice(at, line), 16)
    if (!length) return out
    out += body.slice(line + 2, line + 2 + length)
    at = line + 2 + length + 2
  }
}
