import { SQL } from 'bun'
import { afterAll, describe, expect, test } from 'bun:test'
import { connectPostgres } from '../../src/db/postgres-client.ts'
import { MIGRATION_LOCK, migratePostgres } from '../../src/db/postgres-migrate.ts'
import { postgresMigrations } from '../../src/db/migrations.ts'
import { backends, POSTGRES_ENV } from '../backends.ts'
import { until } from '../until.ts'

// The site's pool sets database.statement_timeout on every connection (src/db/postgres-client.ts).
// Migrations run on that pool: the wait for another instance's migration and a long migration
// (0095 takes ~1.4 s per million votes) are statements like any other there.
describe.if(backends.includes('postgres'))('migrations under the site\'s statement_timeout', () => {
  const base = process.env[POSTGRES_ENV]!
  const names: string[] = []
  async function emptyDatabase() {
    const name = `audit_mig_${process.pid}_${names.length}`
    names.push(name)
    const a = new SQL({ url: `${base}/postgres`, max: 1 })
    await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await a.unsafe(`CREATE DATABASE ${name}`)
    await a.close()
    return `${base}/${name}`
  }
  afterAll(async () => {
    const a = new SQL({ url: `${base}/postgres`, max: 1 })
    for (const n of names) await a.unsafe(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`)
    await a.close()
  })

  test('an instance starting while another migrates for longer than statement_timeout waits for it', async () => {
    const url = await emptyDatabase()
    // Another instance's migration is under way (it holds the lock) for longer than the timeout.
    const first = new SQL({ url, max: 1 })
    const holder = await first.reserve()
    await holder.unsafe('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    const second = connectPostgres({ url, poolSize: 2, statementTimeoutMs: 300 })
    const started = migratePostgres(second).then((r) => ({ applied: r.length }), (e: Error) => ({ error: e.message }))
    const watch = new SQL({ url, max: 1 })
    await until(async () => (await watch.unsafe("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"))[0].n === 1, 'the second instance to wait on the lock')
    await Bun.sleep(600) // longer than the second's statement_timeout
    await holder.unsafe('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
    holder.release()
    expect(await started).toEqual({ applied: postgresMigrations.length })
    await Promise.all([first.close(), second.close(), watch.close()])
  })

  test('a migration longer than statement_timeout is applied, not cancelled', async () => {
    const url = await emptyDatabase()
    const pg = connectPostgres({ url, poolSize: 2, statementTimeoutMs: 300 })
    const list = [{ name: '0001_slow', sql: 'CREATE TABLE slow (x integer); SELECT pg_sleep(0.6);' }]
    await expect(migratePostgres(pg, list)).resolves.toEqual(['0001_slow'])
    // The pool's connections keep the configured timeout afterwards.
    expect((await pg.unsafe('SHOW statement_timeout'))[0].statement_timeout).toBe('300ms')
    await pg.close()
  })
})
