import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createUser } from '../../src/accounts/service.ts'
import { loadConfig } from '../../src/config/load.ts'
import { migrations } from '../../src/db/migrations.ts'
import { createKey } from '../../src/keys/service.ts'
import { memoryLogger } from '../../src/log.ts'
import { createServer } from '../../src/servers/service.ts'
import { cleanupTemp, sqliteSite, tempDir } from '../helpers.ts'
import { cli, fillDatabase, killChildren, listeningUrl, mainScript, spawnChild, writeSiteConfig } from '../spawn.ts'
import { until } from '../until.ts'

afterAll(() => { killChildren(); cleanupTemp() })

const harness = join(import.meta.dir, '../harness/site.ts')

async function startHarness() {
  const dir = tempDir()
  const config = writeSiteConfig(dir)
  const child = spawnChild([process.execPath, harness, config])
  const url = await listeningUrl(child)
  return { dir, config, child, url, db: join(dir, 'data/votelist.db') }
}

// What a new TCP connection to the site meets. A raw connect, not fetch: fetch may reuse a
// kept-alive connection, which the stopping site closes (a reset, not a refusal).
async function connectOutcome(url: string): Promise<string> {
  const { hostname, port } = new URL(url)
  try {
    const socket = await Bun.connect({ hostname, port: Number(port), socket: { data() {} } })
    socket.end()
    return 'connected'
  } catch (e) {
    return (e as { code?: string }).code ?? String(e)
  }
}

describe('graceful stop', () => {
  // SIGHUP: the terminal or SSH session that started it closed.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    test(`${signal}: stops accepting, lets the request and the job in flight finish, closes the database`, async () => {
      const { child, url, db } = await startHarness()
      // A job and a request that run until the test lets them go (SIGUSR2), however long the
      // steps before take.
      const { id } = await (await fetch(`${url}/test/jobs?held=1`, { method: 'POST' })).json() as { id: number }
      await child.waitFor('out', new RegExp(`^job-start ${id} 1$`))
      const held = fetch(`${url}/test/held`).then(async (r) => ({ status: r.status, body: await r.text() }))
      await child.waitFor('out', /^request-start$/)

      child.proc.kill(signal)
      await child.waitFor('err', /stopping: finishing in-flight requests and jobs/)
      // New connections are refused while the old work goes on. The line above is written just
      // before the listener closes, so the test waits for the refusal rather than expecting it.
      await until(async () => (await connectOutcome(url)) === 'ECONNREFUSED', 'new connections to be refused')
      expect(child.proc.exitCode).toBeNull()

      child.proc.kill('SIGUSR2')
      expect(await held).toEqual({ status: 200, body: 'held done' })
      expect(await child.exited).toBe(0)
      expect(child.out).toContain(`job-done ${id} 1`)
      expect(child.out.at(-1)).toBe('exited cleanly')
      expect(child.err.at(-1)).toMatch(/ INFO stopped$/)
      // Closed cleanly: the WAL was checkpointed into the database file and removed.
      expect(existsSync(`${db}-wal`)).toBe(false)
      const after = new Database(db, { readonly: true })
      expect(after.query('SELECT count(*) AS n FROM job WHERE id = ?').get(id)).toEqual({ n: 0 })
      after.close()
    })
  }

  test('jobs not yet claimed at stop time stay queued for the next start; running ones finish', async () => {
    const { child, url, db } = await startHarness()
    // The queue runs 32 jobs at once: 40 due jobs leave 8 waiting for a free slot. The 32 hold
    // their slots until the stop has begun.
    for (let i = 0; i < 40; i++) await fetch(`${url}/test/jobs?held=1`, { method: 'POST' })
    const started = () => child.out.filter((l) => l.startsWith('job-start')).length
    await child.waitForLines('out', /^job-start /, 32)
    child.proc.kill('SIGTERM')
    await child.waitFor('err', /stopping: finishing in-flight requests and jobs/)
    child.proc.kill('SIGUSR2')
    expect(await child.exited).toBe(0)
    expect(child.out.filter((l) => l.startsWith('job-done')).length).toBe(32)
    expect(started()).toBe(32)
    const after = new Database(db, { readonly: true })
    const left = after.query('SELECT attempts, lease_until AS lease FROM job').all()
    after.close()
    expect(left).toEqual(Array.from({ length: 8 }, () => ({ attempts: 0, lease: null })))
  })

  test('a second signal exits at once; the job it cut short stays in the table and runs at the next start', async () => {
    const { child, url, db, config } = await startHarness()
    const { id } = await (await fetch(`${url}/test/jobs?hang=1`, { method: 'POST' })).json() as { id: number }
    await child.waitFor('out', new RegExp(`^job-start ${id} 1$`))
    child.proc.kill('SIGTERM')
    await child.waitFor('err', /stopping: finishing in-flight requests and jobs/)
    // The job never ends: a stop that did not wait for it would exit within this window (a
    // slow machine can only hide such a bug, never fail a correct stop).
    await Bun.sleep(300)
    expect(child.proc.exitCode).toBeNull()
    child.proc.kill('SIGTERM')
    expect(await child.exited).toBe(1)
    expect(child.err.join('\n')).toContain('second stop signal: exiting without waiting for running work')
    const sqlite = new Database(db, { readonly: true })
    expect(sqlite.query('SELECT attempts FROM job WHERE id = ?').get(id)).toEqual({ attempts: 1 })
    sqlite.close()
    const next = spawnChild([process.execPath, harness, config])
    await next.waitFor('out', new RegExp(`^job-done ${id} 2$`))
    next.proc.kill('SIGTERM')
    expect(await next.exited).toBe(0)
  })

  test('votelist serve writes the API keys\' "last used" time on SIGTERM, not only at the next minutely flush', async () => {
    const dir = tempDir()
    const config = writeSiteConfig(dir)
    // An owner, a server and a key in the site's database, made before the site starts.
    const seed = sqliteSite(loadConfig(config), { log: memoryLogger() })
    const owner = await createUser(seed, { email: 'owner@example.com', password: 'correct horse battery' })
    const server = await createServer(seed, owner.id, { name: 'Valley', host: '8.8.8.8' })
    const { id: keyId, key } = await createKey(seed, server.id)
    seed.db.close()

    const child = spawnChild([process.execPath, mainScript, 'serve', '--config', config])
    const url = await listeningUrl(child)
    const before = Date.now()
    const checked = await fetch(`${url}/api/v1/votes/check?pseudo=Steve`, { headers: { 'X-Api-Key': key } })
    expect(checked.status).toBe(200)
    const after = Date.now()
    child.proc.kill('SIGTERM')
    expect(await child.exited).toBe(0)

    const db = new Database(join(dir, 'data/votelist.db'), { readonly: true })
    const { usedAt } = db.query('SELECT last_used_at AS usedAt FROM api_key WHERE id = ?').get(keyId) as { usedAt: number | null }
    db.close()
    expect(usedAt).toBeGreaterThanOrEqual(before)
    expect(usedAt).toBeLessThanOrEqual(after)
  })

  // nohup starts it with SIGHUP ignored, so that it outlives the session: that stays so.
  test('started with SIGHUP ignored (nohup), it goes on serving through a SIGHUP', async () => {
    const dir = tempDir()
    const config = writeSiteConfig(dir)
    const child = spawnChild(['sh', '-c', 'trap "" HUP; exec "$@"', 'sh', process.execPath, mainScript, 'serve', '--config', config])
    const url = await listeningUrl(child)
    child.proc.kill('SIGHUP')
    // Answering needs the process to run, and it meets the signal before it runs again.
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200)
    child.proc.kill('SIGTERM')
    expect(await child.exited).toBe(0)
    expect(child.err.filter((l) => l.includes('stopping'))).toEqual([expect.stringContaining('"signal":"SIGTERM"')])
  })

  test('a second serve on the same database is refused while the first runs', async () => {
    const { child, config } = await startHarness()
    const second = await cli(['serve', '--config', config])
    expect(second.code).toBe(1)
    expect(second.stderr).toContain('another votelist serve is using')
    child.proc.kill('SIGTERM')
    expect(await child.exited).toBe(0)
  })

  // A newer votelist started by hand beside the service (to try it) must not migrate the running
  // site's database, then stop at the lock: the running older version would be left on a schema
  // it does not know, and could not start again. The lock is taken before anything is written.
  test('a second serve takes the lock before it migrates: it leaves the running site\'s database as it is', async () => {
    const { child, config, db } = await startHarness()
    // What a newer version meets: a migration this database has not recorded.
    const latest = migrations[migrations.length - 1].name
    const sqlite = new Database(db)
    sqlite.run('DELETE FROM schema_migration WHERE name = ?', [latest])
    sqlite.close()
    const second = await cli(['serve', '--config', config])
    const check = new Database(db, { readonly: true })
    const recorded = check.query('SELECT count(*) AS n FROM schema_migration WHERE name = ?').get(latest)
    check.close()
    child.proc.kill('SIGTERM')
    expect(await child.exited).toBe(0)
    expect({ code: second.code, stderr: second.stderr.replace(/ \(.*\)$/, ''), recorded }).toEqual({
      code: 1, stderr: `votelist serve: another votelist serve is using ${db}`, recorded: { n: 0 },
    })
  })
})

// systemd's SIGKILL after TimeoutStopSec, the OOM killer, a power cut: a backup being made for
// the dashboard dies with the process, and its temporary copy, as large as the database, would
// stay hidden in the data folder for good.
describe('a dashboard backup cut short by kill -9', () => {
  test('its temporary copy is removed at the next start', async () => {
    const dir = tempDir()
    const config = writeSiteConfig(dir)
    const password = 'correct horse battery'
    expect((await cli(['user', 'add', '--email', 'admin@example.com', '--password', '-', '--config', config], { stdin: `${password}\n` })).code).toBe(0)
    fillDatabase(join(dir, 'data/votelist.db'))
    const serve = () => spawnChild([process.execPath, mainScript, 'serve', '--config', config])
    const first = serve()
    const url = await listeningUrl(first)
    const login = await fetch(`${url}/api/v1/auth/login`, {
      method: 'POST', headers: { origin: url, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password }),
    })
    expect(login.status).toBe(200)
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
    const download = fetch(`${url}/api/v1/admin/backup`, { headers: { cookie } }).catch(() => null)
    const copies = () => readdirSync(join(dir, 'data')).filter((name) => name.includes('.backup-'))
    await until(() => copies().length > 0, 'the backup\'s temporary copy to appear')
    first.proc.kill('SIGKILL')
    await first.exited
    await download
    const leftByTheKill = copies()
    const second = serve()
    await listeningUrl(second)
    const afterRestart = copies()
    second.proc.kill('SIGTERM')
    expect(await second.exited).toBe(0)
    expect({ leftByTheKill: leftByTheKill.length > 0, afterRestart }).toEqual({ leftByTheKill: true, afterRestart: [] })
  })
})
