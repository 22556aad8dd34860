// `bun run test [ARGS…]`: `bun test --timeout 30000 ARGS…`, with a throwaway PostgreSQL cluster for
// the suites that run on both backends (test/backends.ts). The cluster is started first (its
// binaries installed when missing, as test/ensure-chromium.sh does for Chromium), a database
// migrated once as the template every test copies, and it is stopped and removed at the end, also
// when the tests fail or are interrupted. VOTELIST_TEST_BACKENDS=sqlite runs without PostgreSQL.
import { SQL } from 'bun'
import { join } from 'node:path'
import { migratePostgres } from '../src/db/postgres-migrate.ts'
import { POSTGRES_ENV, requestedBackends, TEMPLATE_DATABASE } from './postgres/env.ts'
import { startCluster, type Cluster } from './postgres/cluster.ts'

const args = process.argv.slice(2)
const env: Record<string, string | undefined> = { ...process.env }
let cluster: Cluster | null = null

async function prepareTemplate(url: string) {
  const admin = new SQL({ url: `${url}/postgres`, max: 1 })
  await admin.unsafe(`CREATE DATABASE ${TEMPLATE_DATABASE}`)
  await admin.close()
  const template = new SQL({ url: `${url}/${TEMPLATE_DATABASE}`, max: 1 })
  await migratePostgres(template)
  await template.close()
}

if (requestedBackends().includes('postgres')) {
  const found = Bun.spawnSync(['sh', join(import.meta.dir, 'ensure-postgres.sh')], { stdout: 'pipe', stderr: 'inherit' })
  if (found.exitCode !== 0) process.exit(1)
  const started = performance.now()
  cluster = await startCluster(found.stdout.toString().trim())
  try {
    await prepareTemplate(cluster.url)
  } catch (e) {
    cluster.stop()
    throw e
  }
  env[POSTGRES_ENV] = cluster.url
  console.error(`test/run.ts: PostgreSQL test cluster at ${cluster.url} (${cluster.dir}), ready in ${Math.round(performance.now() - started)} ms`)
}

const tests = Bun.spawn(['bun', 'test', '--timeout', '30000', ...args], { stdin: 'inherit', stdout: 'inherit', stderr: 'inherit', env })
// Ctrl-C reaches both processes; a signal sent to this one alone is passed on. Either way this
// process waits for the tests to end, then removes the cluster.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => tests.kill(signal))
const code = await tests.exited
cluster?.stop()
process.exit(code)
