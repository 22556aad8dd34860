import { SQL } from 'bun'
import { afterEach, describe } from 'bun:test'
import { POSTGRES_ENV, requestedBackends, TEMPLATE_DATABASE, type Backend } from './postgres/env.ts'

export type { Backend }
export { POSTGRES_ENV }

// The backends the behaviour suites run on. `bun run test` starts a throwaway PostgreSQL cluster
// (test/run.ts) and passes its address in VOTELIST_TEST_POSTGRES; each test then gets a database
// of its own, copied from a migrated template (CREATE DATABASE … TEMPLATE: tens of milliseconds).
// VOTELIST_TEST_BACKENDS=sqlite (or =postgres) runs one backend only.

function availableBackends(): Backend[] {
  const requested = requestedBackends()
  if (!requested.includes('postgres') || process.env[POSTGRES_ENV]) return requested
  // Run with `bun test` directly: no cluster was started. Asked for explicitly, that is an error;
  // otherwise the PostgreSQL cases are left out, and said so where a suite would run them.
  if (process.env.VOTELIST_TEST_BACKENDS) throw new Error(`PostgreSQL tests need a cluster: run them with \`bun run test\`, which starts one (or set ${POSTGRES_ENV})`)
  return requested.filter((b) => b !== 'postgres')
}

export const backends = availableBackends()

let warned = false
function warnIfSkipped() {
  if (warned || backends.includes('postgres') || !requestedBackends().includes('postgres')) return
  warned = true
  console.warn(`test/backends.ts: no PostgreSQL (${POSTGRES_ENV} unset): the PostgreSQL cases are skipped; \`bun run test\` runs them`)
}

// Closed after each test of a backend suite: the PostgreSQL sites made during it (their pools,
// their databases), so that connections do not pile up over a file.
const open: (() => Promise<void>)[] = []
export function onTestEnd(close: () => Promise<void>) {
  open.push(close)
}
export async function closeTestSites() {
  for (const close of open.splice(0).reverse()) await close()
}

// describe() once per backend, each test's PostgreSQL sites closed after it.
export function describeBackends(name: string, fn: (backend: Backend) => void) {
  warnIfSkipped()
  describe.each(backends)(`${name} [%s]`, (backend) => {
    afterEach(closeTestSites)
    fn(backend)
  })
}

let admin: SQL | null = null
let made = 0
let next: Promise<string> | null = null

// A database copied from the migrated template. FILE_COPY copies the template's files: several
// times faster than the default strategy for a database this small.
async function copyTemplate(): Promise<string> {
  const base = process.env[POSTGRES_ENV]
  if (!base) throw new Error(`${POSTGRES_ENV} is not set: run the tests with \`bun run test\``)
  admin ??= new SQL({ url: `${base}/postgres`, max: 2 })
  const name = `t_${process.pid}_${++made}`
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE} STRATEGY FILE_COPY`)
  return name
}

// A new database for one test, dropped by `drop()`. The next one is copied while this one is in
// use, and a drop is not waited for: a test does not pay for either.
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = await (next ?? copyTemplate())
  next = copyTemplate()
  next.catch(() => {}) // reported by the test that awaits it
  return {
    url: `${process.env[POSTGRES_ENV]}/${name}`,
    drop: async () => {
      admin!.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((e) => console.warn(`test/backends.ts: could not drop ${name}: ${(e as Error).message}`))
    },
  }
}

// A database with nothing in it (no migration applied), dropped by `drop()`.
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env[POSTGRES_ENV]
  if (!base) throw new Error(`${POSTGRES_ENV} is not set: run the tests with \`bun run test\``)
  admin ??= new SQL({ url: `${base}/postgres`, max: 2 })
  const name = `e_${process.pid}_${++made}`
  await admin.unsafe(`CREATE DATABASE ${name}`)
  return { url: `${base}/${name}`, drop: async () => { await admin!.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) } }
}

// SQLite's `?` parameters as PostgreSQL's $1, $2…, outside quoted text: the tests' own queries are
// written once for both backends.
export function dollarParams(text: string): string {
  let n = 0
  let quoted = false
  let out = ''
  for (const ch of text) {
    if (ch === "'") quoted = !quoted
    out += ch === '?' && !quoted ? `$${++n}` : ch
  }
  return out
}
