import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { killChildren, listeningUrl, spawnChild, writeSiteConfig } from '../spawn.ts'

afterAll(() => { killChildren(); cleanupTemp() })

const harness = (name: string) => join(import.meta.dir, '../harness', name)

describe('crash safety of the job queue (kill -9)', () => {
  for (const batch of [1, 7]) {
    test(`no committed job is lost when the process is killed mid-burst (${batch} job(s) per transaction)`, async () => {
      const dir = tempDir()
      const config = writeSiteConfig(dir)
      const child = spawnChild([process.execPath, harness('enqueue-burst.ts'), config, String(batch)])
      // Let it get well into the burst, then kill it without warning.
      await child.waitFor('out', /^3000$/, 20_000)
      child.proc.kill('SIGKILL')
      await child.exited
      const printed = child.out.filter((l) => /^\d+$/.test(l)).map(Number)
      expect(printed.length).toBeGreaterThanOrEqual(3000)

      const db = new Database(join(dir, 'data/votelist.db'))
      expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
      const stored = new Set((db.query('SELECT id FROM job').all() as { id: number }[]).map((r) => r.id))
      const lost = printed.filter((id) => !stored.has(id))
      expect(lost).toEqual([])
      // Transactions are all or nothing: every batch on disk is whole.
      const sizes = db.query(`SELECT json_extract(payload, '$.batch') AS b, count(*) AS n FROM job GROUP BY b HAVING n <> ?`).all(batch)
      expect(sizes).toEqual([])
      db.close()
    })
  }

  test('a job running when the process was killed runs again at the next start', async () => {
    const dir = tempDir()
    const config = writeSiteConfig(dir)
    const first = spawnChild([process.execPath, harness('site.ts'), config])
    const url = await listeningUrl(first)
    const { id } = await (await fetch(`${url}/test/jobs?hang=1`, { method: 'POST' })).json() as { id: number }
    await first.waitFor('out', new RegExp(`^job-start ${id} 1$`))
    first.proc.kill('SIGKILL')
    await first.exited

    // On disk: still there, leased by the dead process for minutes to come.
    const db = new Database(join(dir, 'data/votelist.db'))
    const row = db.query('SELECT attempts, lease_until AS lease FROM job WHERE id = ?').get(id) as { attempts: number; lease: number }
    db.close()
    expect(row.attempts).toBe(1)
    expect(row.lease).toBeGreaterThan(Date.now() + 60_000)

    const second = spawnChild([process.execPath, harness('site.ts'), config])
    await second.waitFor('err', /re-queued jobs interrupted by the previous stop \{"jobs":1\}/)
    await second.waitFor('out', new RegExp(`^job-done ${id} 2$`))
    second.proc.kill('SIGTERM')
    expect(await second.exited).toBe(0)
    const after = new Database(join(dir, 'data/votelist.db'), { readonly: true })
    expect(after.query('SELECT count(*) AS n FROM job').get()).toEqual({ n: 0 })
    after.close()
  })
})
