import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createUser } from '../../src/accounts/service.ts'
import { loadConfig } from '../../src/config/load.ts'
import { createKey } from '../../src/keys/service.ts'
import { memoryLogger } from '../../src/log.ts'
import { createRuntime } from '../../src/runtime.ts'
import { createServer } from '../../src/servers/service.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { cli, killChildren, listeningUrl, mainScript, spawnChild, writeSiteConfig } from '../spawn.ts'

afterAll(() => { killChildren(); cleanupTemp() })

const harness = join(import.meta.dir, '../harness/site.ts')

async function startHarness() {
  const dir = tempDir()
  const config = writeSiteConfig(dir)
  const child = spawnChild([process.execPath, harness, config])
  const url = await listeningUrl(child)
  return { dir, config, child, url, db: join(dir, 'data/votelist.db') }
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) })
    return false
  } catch {
    return true
  }
}

describe('graceful stop', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal}: stops accepting, lets the request and the job in flight finish, closes the database`, async () => {
      const { child, url, db } = await startHarness()
      const { id } = await (await fetch(`${url}/test/jobs?ms=2000`, { method: 'POST' })).json() as { id: number }
      await child.waitFor('out', new RegExp(`^job-start ${id} 1$`))
      const slow = fetch(`${url}/test/slow?ms=800`).then(async (r) => ({ status: r.status, body: await r.text() }))
      await child.waitFor('out', /^request-start$/)

      child.proc.kill(signal)
      await child.waitFor('err', /stopping: finishing in-flight requests and jobs/)
      // New connections are refused at once while the old work goes on.
      expect(await refused(`${url}/api/v1/health`)).toBe(true)
      expect(child.out).not.toContain(`job-done ${id} 1`)

      expect(await slow).toEqual({ status: 200, body: 'slow done' })
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
    // The queue runs 32 jobs at once: 40 due jobs leave 8 waiting for a free slot.
    for (let i = 0; i < 40; i++) await fetch(`${url}/test/jobs?ms=1500`, { method: 'POST' })
    const started = () => child.out.filter((l) => l.startsWith('job-start')).length
    for (let i = 0; i < 100 && started() < 32; i++) await Bun.sleep(20)
    expect(started()).toBe(32)
    child.proc.kill('SIGTERM')
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
    const { id } = await (await fetch(`${url}/test/jobs?ms=0&hang=1`, { method: 'POST' })).json() as { id: number }
    await child.waitFor('out', new RegExp(`^job-start ${id} 1$`))
    child.proc.kill('SIGTERM')
    await child.waitFor('err', /stopping: finishing in-flight requests and jobs/)
    await Bun.sleep(300)
    expect(child.proc.exitCode).toBeNull() // still waiting for the job
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
    const seed = createRuntime(loadConfig(config), { log: memoryLogger() })
    const owner = await createUser(seed.db, seed.users, seed.clock, { email: 'owner@example.com', password: 'correct horse battery' })
    const server = await createServer(seed, owner.id, { name: 'Valley', host: '8.8.8.8' })
    const { id: keyId, key } = createKey(seed.keys, seed.clock, server.id)
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

  test('a second serve on the same database is refused while the first runs', async () => {
    const { child, config } = await startHarness()
    const second = await cli(['serve', '--config', config])
    expect(second.code).toBe(1)
    expect(second.stderr).toContain('another votelist serve is using')
    child.proc.kill('SIGTERM')
    expect(await child.exited).toBe(0)
  })
})
