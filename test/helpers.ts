import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from 'bun:sqlite'
import { createUser } from '../src/accounts/service.ts'
import { createApp } from '../src/app.ts'
import { manualClock, type ManualClock } from '../src/clock.ts'
import { parseConfig, type Config, type ConfigInput } from '../src/config/load.ts'
import { migrate } from '../src/db/migrate.ts'
import { openDatabase } from '../src/db/open.ts'
import { connectPostgres, rows as postgresRows } from '../src/db/postgres-client.ts'
import { createKey, hashKey } from '../src/keys/service.ts'
import { memoryLogger, type Logger } from '../src/log.ts'
import type { Lookup } from '../src/net/guard.ts'
import { storeRuntime } from '../src/runtime.ts'
import { createServer, listingPolicy } from '../src/servers/service.ts'
import type { ServerCreate } from '../src/servers/schema.ts'
import { createSite, type Site } from '../src/site.ts'
import { postgresStore } from '../src/store-postgres.ts'
import { sqliteStore, type SqliteStore } from '../src/store.ts'
import { createTestDatabase, dollarParams, onTestEnd, type Backend } from './backends.ts'

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

// A site on SQLite, whose repositories answer plain values, with the database itself for the
// tests' own queries.
export type TestRuntime = Site<SqliteStore> & {
  clock: ManualClock
  log: ReturnType<typeof memoryLogger>
  db: Database
}

// Name resolution for tests, which never ask a real DNS server: localhost is loopback, names
// under the example domains (RFC 2606) have a public address, any other name does not resolve.
export const testLookup: Lookup = async (host) => {
  const name = host.toLowerCase().replace(/\.$/, '')
  if (name === 'localhost' || name.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }]
  if (/(^|\.)example(\.(com|org|net))?$/.test(name)) return [{ address: '93.184.216.34', family: 4 }]
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
}

// A site on the database of `config` (migrated), as `votelist serve` opens it, but synchronously
// and keeping the database handle. Defaults: the system clock, a logger to stderr.
export function sqliteSite(config: Config, opts: { clock?: ManualClock; log?: Logger; lookup?: Lookup } = {}) {
  const db = openDatabase(config.database.path)
  const migrated = migrate(db, undefined, (opts.clock ?? Date).now())
  const store = sqliteStore(db, listingPolicy(config))
  return { ...createSite(storeRuntime({ config, store, migrated, secret: store.settings.get('secret') }, opts), { lookup: opts.lookup }), db }
}

// A migrated site on a temp database, with a manual clock, a collecting logger and the test
// resolver (or the one given).
export function testRuntime(input: ConfigInput = {}, start?: number, opts: { lookup?: Lookup } = {}): TestRuntime {
  return sqliteSite(testConfig(input), { clock: manualClock(start), log: memoryLogger(), lookup: opts.lookup ?? testLookup }) as TestRuntime
}

// A site on either backend, with the tests' own queries: `rows` and `row` take SQL written for
// both (`?` parameters; camelCase aliases quoted; "user" quoted) and give numbers for integers.
export type BackendRuntime = Site & {
  clock: ManualClock
  log: ReturnType<typeof memoryLogger>
  backend: Backend
  rows<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>
  row<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | null>
}

// A migrated site on a fresh database of `backend` (see testRuntime); on PostgreSQL it is closed
// and its database dropped after the test (describeBackends).
export async function siteOn(backend: Backend, input: ConfigInput = {}, start?: number, opts: { lookup?: Lookup } = {}): Promise<BackendRuntime> {
  if (backend === 'sqlite') {
    const sqlite = testRuntime(input, start, opts)
    return withQueries(sqlite, 'sqlite', async (sql, params) => sqlite.db.query(sql).all(...(params as string[])))
  }
  const db = await createTestDatabase()
  onTestEnd(() => db.drop())
  return postgresSite(testConfig({ ...input, database: { url: db.url, ...input.database } }), { clock: manualClock(start), lookup: opts.lookup })
}

// The [database] settings that open the database of `config` again (another process's config).
export const databaseInput = (config: Config) => (config.database.url ? { url: config.database.url } : { path: config.database.path })

// Another site on the database of `rt`, as a restarted process would open it (with the same
// clock unless one is given).
export function siteAgain(rt: BackendRuntime, opts: { clock?: ManualClock } = {}): Promise<BackendRuntime> | BackendRuntime {
  const clock = opts.clock ?? rt.clock
  if (rt.backend === 'postgres') return postgresSite(rt.config, { clock })
  const sqlite = sqliteSite(rt.config, { clock, log: memoryLogger(), lookup: testLookup }) as TestRuntime
  return withQueries(sqlite, 'sqlite', async (sql, params) => sqlite.db.query(sql).all(...(params as string[])))
}

// As openStore opens it, on a migrated database; the tests' own queries share its pool, which is
// closed at the end of the test.
async function postgresSite(config: Config, opts: { clock: ManualClock; lookup?: Lookup }): Promise<BackendRuntime> {
  const { url, pool_size: poolSize, statement_timeout: statementTimeoutMs } = config.database
  const pg = connectPostgres({ url, poolSize, statementTimeoutMs })
  const store = postgresStore(pg, listingPolicy(config))
  onTestEnd(async () => { await store.close() })
  const runtime = storeRuntime({ config, store, migrated: [], secret: await store.settings.get('secret') }, { clock: opts.clock, log: memoryLogger() })
  const rt = createSite(runtime, { lookup: opts.lookup ?? testLookup }) as Site & { clock: ManualClock; log: ReturnType<typeof memoryLogger> }
  return withQueries(rt, 'postgres', (sql, params) => postgresRows(pg, dollarParams(sql), params))
}

function withQueries(rt: Site & { clock: ManualClock; log: ReturnType<typeof memoryLogger> }, backend: Backend, rows: (sql: string, params: unknown[]) => Promise<unknown[]>): BackendRuntime {
  return Object.assign(rt, {
    backend,
    rows: <T>(sql: string, ...params: unknown[]) => rows(sql, params) as Promise<T[]>,
    row: async <T>(sql: string, ...params: unknown[]) => ((await rows(sql, params))[0] ?? null) as T | null,
  })
}

// The whole app on a test runtime.
export function testApp(rt: Site) {
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

// An owner, one server and one API key: the state most API tests start from. The host is
// checked with the test resolver whatever runtime is given.
export async function seedServer(rt: Site, server: Partial<ServerCreate> = {}, email = 'owner@example.com') {
  const owner = (await rt.store.users.byEmail(email)) ?? (await createUser(rt, { email, password: 'correct horse battery' }))
  const created = await createServer({ ...rt, lookup: testLookup }, owner.id, { name: 'Emerald Valley', host: 'play.example.com', ...server })
  const key = await createKey(rt, created.id, 'test')
  return { owner, server: created, key: key.key }
}

// The stored row of an API key, read by its secret.
export const keyRow = (rt: BackendRuntime, key: string) =>
  rt.row<{ id: string; revokedAt: number | null }>('SELECT id, revoked_at AS "revokedAt" FROM api_key WHERE hash = ?', hashKey(key))
