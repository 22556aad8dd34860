import type { Config } from './config/load.ts'

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

// node:http rather than fetch: fetch would go through an http_proxy from the environment, even to
// loopback, and ask the proxy instead of the site.
function get(url: string): Promise<{ status: number; body: string }> {
  const http = require('node:http') as typeof import('node:http')
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { accept: 'application/json', connection: 'close' } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        if (body.length < MAX_BODY) body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      res.on('error', reject)
    })
    req.setTimeout(TIMEOUT_MS, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })))
    req.on('error', reject)
  })
}
