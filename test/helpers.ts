import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createUser } from '../src/accounts/service.ts'
import { createApp } from '../src/app.ts'
import { manualClock, type ManualClock } from '../src/clock.ts'
import { parseConfig, type ConfigInput } from '../src/config/load.ts'
import { createKey } from '../src/keys/service.ts'
import { memoryLogger } from '../src/log.ts'
import { createRuntime, type Runtime } from '../src/runtime.ts'
import { createServer } from '../src/servers/service.ts'
import type { ServerCreate } from '../src/servers/schema.ts'

const made: string[] = []

// A fresh temporary folder, removed by cleanupTemp() (call it in afterAll/afterEach).
export function tempDir(prefix = 'votelist-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  made.push(dir)
  return dir
}

export function cleanupTemp() {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true })
}

// Config for tests: a real SQLite file in a temp folder; captcha off unless a test turns it on.
export function testConfig(input: ConfigInput = {}, dir = tempDir()) {
  return parseConfig({ ...input, votes: { captcha: 'off', ...input.votes } }, dir)
}

export interface TestRuntime extends Runtime {
  clock: ManualClock
  log: ReturnType<typeof memoryLogger>
}

// A migrated runtime on a temp database, with a manual clock and a collecting logger.
export function testRuntime(input: ConfigInput = {}, start?: number): TestRuntime {
  const rt = createRuntime(testConfig(input), { clock: manualClock(start), log: memoryLogger() })
  return rt as TestRuntime
}

// The whole app on a test runtime (async: the static plugin lists embedded files first).
export function testApp(rt: Runtime) {
  return createApp(rt)
}


// Anything with Elysia's handle(): the whole app or a single feature module.
type App = { handle(request: Request): Promise<Response> }

// One in-process request. Elysia parses the path from a fixed offset, so keep a real host name.
export function call(app: App, method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) {
  const headers = new Headers(opts.headers)
  let body: BodyInit | undefined
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
  }
  return app.handle(new Request(`http://localhost${path}`, { method, headers, body }))
}

// An owner, one server and one API key: the state most API tests start from.
export async function seedServer(rt: Runtime, server: Partial<ServerCreate> = {}, email = 'owner@example.com') {
  const owner = rt.users.byEmail(email) ?? (await createUser(rt.db, rt.users, rt.clock, { email, password: 'correct horse battery' }))
  const created = createServer(rt, owner.id, { name: 'Emerald Valley', host: 'play.example.com', ...server })
  const key = createKey(rt.keys, rt.clock, created.id, 'test')
  return { owner, server: created, key: key.key }
}
