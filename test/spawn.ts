import { Database } from 'bun:sqlite'
import type { Subprocess } from 'bun'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// Child processes for the tests that need a real process: signals, kill -9, exit codes, stdin,
// the compiled binary. Output is collected line by line so a test can wait for a given line.

export const repoRoot = join(import.meta.dir, '..')
export const mainScript = join(repoRoot, 'src/main.ts')

export interface Child {
  proc: Subprocess<'pipe', 'pipe', 'pipe'>
  out: string[]
  err: string[]
  // Resolves with the first line (already seen or to come) of the stream that matches.
  waitFor(stream: 'out' | 'err', pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
  // Resolves once `count` lines of the stream match.
  waitForLines(stream: 'out' | 'err', pattern: RegExp, count: number, timeoutMs?: number): Promise<RegExpMatchArray[]>
  exited: Promise<number>
}

const running = new Set<Subprocess>()

export function spawnChild(cmd: string[], opts: { cwd?: string; env?: Record<string, string>; stdin?: string } = {}): Child {
  const proc = Bun.spawn(cmd, {
    cwd: opts.cwd, env: { ...process.env, ...opts.env },
    stdin: 'pipe', stdout: 'pipe', stderr: 'pipe',
  })
  running.add(proc)
  if (opts.stdin !== undefined) proc.stdin.write(opts.stdin)
  proc.stdin.end()
  const lines = { out: [] as string[], err: [] as string[] }
  const waiters = new Set<() => void>()
  const pump = async (stream: ReadableStream<Uint8Array>, into: string[]) => {
    const decoder = new TextDecoder()
    let rest = ''
    const reader = stream.getReader()
    for (;;) {
      const { done: end, value } = await reader.read()
      if (end) break
      const parts = (rest + decoder.decode(value, { stream: true })).split('\n')
      rest = parts.pop()!
      into.push(...parts)
      for (const w of waiters) w()
    }
    if (rest) into.push(rest)
  }
  const pumped = Promise.all([pump(proc.stdout, lines.out), pump(proc.stderr, lines.err)])
  let done = false
  const exited = proc.exited.then(async (code) => {
    await pumped
    running.delete(proc)
    done = true
    for (const w of waiters) w()
    return code
  })

  // The deadline only runs out when something is wrong: a busy machine starts processes slowly.
  function waitForLines(stream: 'out' | 'err', pattern: RegExp, count: number, timeoutMs = 20_000): Promise<RegExpMatchArray[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = lines[stream].map((line) => line.match(pattern)).filter((m) => m !== null)
        if (found.length >= count) return finish(() => resolve(found.slice(0, count)))
        if (done) finish(() => reject(new Error(`process exited before printing ${count} × ${pattern}\n${describe()}`)))
      }
      const timer = setTimeout(() => finish(() => reject(new Error(`timed out waiting for ${count} × ${pattern}\n${describe()}`))), timeoutMs)
      const finish = (fn: () => void) => {
        clearTimeout(timer)
        waiters.delete(check)
        fn()
      }
      waiters.add(check)
      check()
    })
  }
  const waitFor = async (stream: 'out' | 'err', pattern: RegExp, timeoutMs?: number) => (await waitForLines(stream, pattern, 1, timeoutMs))[0]
  const describe = () => `stdout:\n${lines.out.join('\n')}\nstderr:\n${lines.err.join('\n')}`
  return { proc, out: lines.out, err: lines.err, waitFor, waitForLines, exited }
}

// Runs a command to its end: exit code and whole output.
export async function runChild(cmd: string[], opts: { cwd?: string; env?: Record<string, string>; stdin?: string } = {}) {
  const child = spawnChild(cmd, opts)
  const code = await child.exited
  return { code, stdout: child.out.join('\n'), stderr: child.err.join('\n') }
}

// The votelist command line from the sources (`bun src/main.ts …`).
export const cli = (args: string[], opts: { cwd?: string; stdin?: string } = {}) => runChild([process.execPath, mainScript, ...args], opts)

// Reads the address a site logged at start (it listens on port 0 in tests).
export async function listeningUrl(child: Child): Promise<string> {
  const [, url] = await child.waitFor('err', /votelist listening .*"url":"([^"]+)"/)
  return url.replace(/\/$/, '')
}

// For afterAll: no test leaves a process behind, even when it failed halfway.
export function killChildren() {
  for (const p of running) p.kill('SIGKILL')
  running.clear()
}

// Makes the database at `path` 128 MiB larger (a table of random blobs): a copy of it (a backup)
// then takes long enough to be caught half-way.
export function fillDatabase(path: string): void {
  const db = new Database(path)
  db.run('CREATE TABLE filler (b BLOB)')
  db.run('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2048) INSERT INTO filler SELECT randomblob(65536) FROM n')
  db.close()
}

// A votelist.toml for a child site: loopback, a free port, the database in `dir`.
export function writeSiteConfig(dir: string, extra = ''): string {
  const path = join(dir, 'votelist.toml')
  writeFileSync(path, `[http]\nhost = "127.0.0.1"\nport = 0\n[votes]\ncaptcha = "off"\n${extra}`)
  return path
}

let built: Promise<string> | null = null

// The compiled binary, built once per test run with the project's own `bun run build` and
// copied out of the checkout (so nothing beside it can help it run).
export function buildBinary(): Promise<string> {
  built ??= (async () => {
    const build = await runChild([process.execPath, 'run', 'build'], { cwd: repoRoot })
    if (build.code !== 0) throw new Error(`bun run build failed:\n${build.stdout}\n${build.stderr}`)
    const dir = mkdtempSync(join(tmpdir(), 'votelist-bin-'))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    const binary = join(dir, 'votelist')
    copyFileSync(join(repoRoot, 'dist/votelist'), binary)
    return binary
  })()
  return built
}
