import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Subprocess } from 'bun'

const MAIN = join(import.meta.dir, '../src/main.ts')

export interface RunningServer {
  url: string // "http://127.0.0.1:PORT"
  proc: Subprocess<'ignore', 'ignore', 'pipe'>
  log: string[] // the lines it wrote to stderr so far
}

// Starts `bun src/main.ts serve --config FILE` (the real site, as a separate process) and resolves
// once it listens, with the address it logged (the config should use port 0 and log.level "info"
// or more verbose, as the address is read from the start line). The deadline only runs out when
// something is wrong: a busy machine starts processes slowly. `binary`: the compiled executable
// (dist/votelist) instead of the sources.
export async function startServer(configPath: string, timeoutMs = 20_000, binary?: string): Promise<RunningServer> {
  const proc = Bun.spawn([...(binary ? [binary] : ['bun', MAIN]), 'serve', '--config', configPath], { stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' })
  const log: string[] = []
  const reader = proc.stderr.getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const timer = Bun.sleep(deadline - Date.now()).then(() => ({ value: undefined, done: true as const }))
    const { value, done } = await Promise.race([reader.read(), timer])
    if (done) break
    buffered += decoder.decode(value, { stream: true })
    const lines = buffered.split('\n')
    buffered = lines.pop()!
    for (const line of lines) {
      log.push(line)
      const m = / INFO votelist listening (\{.*\})$/.exec(line)
      if (m) {
        // Keep draining stderr, line by line, so the child never blocks on a full pipe.
        void (async () => {
          for (;;) {
            const r = await reader.read().catch(() => ({ done: true, value: undefined }))
            if (r.done) return
            const more = (buffered + decoder.decode(r.value, { stream: true })).split('\n')
            buffered = more.pop()!
            log.push(...more)
          }
        })()
        return { url: new URL(JSON.parse(m[1]).url).origin, proc, log }
      }
    }
  }
  proc.kill(9)
  throw new Error(`the server did not start:\n${[...log, buffered].join('\n')}`)
}

export async function stopServer(s: RunningServer, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<number | null> {
  s.proc.kill(signal)
  await s.proc.exited
  return s.proc.exitCode
}

// A votelist.toml in `dir` for the real site under load: a free port on 127.0.0.1 (logged at
// start), the database beside it, captcha off, and voter addresses read from X-Forwarded-For so
// that a load generator can give every vote its own address. `more`: further TOML tables (not
// [http], [database], [votes] or [limits]). Returns the file's path.
export function writeLoadConfig(dir: string, database = 'site.db', more = ''): string {
  const path = join(dir, 'votelist.toml')
  writeFileSync(path, `
[http]
host = "127.0.0.1"
port = 0
trust_proxy = true
[database]
path = "${database}"
[votes]
captcha = "off"
[limits]
vote_attempts_per_minute = 100
${more}`)
  return path
}

// Runs `start(port)` with a port that was free on "::" (a dual-stack listener, which also accepts
// IPv4 on Linux), for tests whose config must name the port before the site listens
// (site.ipv4_url / site.ipv6_url). Another process may take the port between the probe and
// `start` listening on it: then it tries again with another one.
export async function onFreeDualStackPort<T>(start: (port: number) => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    const probe = Bun.serve({ hostname: '::', port: 0, fetch: () => new Response() })
    const port = probe.port!
    probe.stop(true)
    try {
      return await start(port)
    } catch (e) {
      if (i >= tries || (e as { code?: string }).code !== 'EADDRINUSE') throw e
    }
  }
}
