import { Database } from 'bun:sqlite'
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { POSTGRES_BACKUP } from '../../src/admin/backup.ts'
import { saveWebhook } from '../../src/channels/service.ts'
import { effectiveConfig, maskUrlPasswords, showValue } from '../../src/config/effective.ts'
import { parseConfig } from '../../src/config/load.ts'
import { str } from '../../src/config/schema.ts'
import { registerSiteWork } from '../../src/site.ts'
import { runPingRound } from '../../src/stats/round.ts'
import { recordVote } from '../../src/votes/service.ts'
import { javaServer, refusedPort } from '../stats/peers.ts'
import { backends, closeTestSites, describeBackends, type Backend } from '../backends.ts'
import { call, cleanupTemp, seedServer, siteOn, tempDir, testApp } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

const HOUR = 3600_000

async function site(backend: Backend, input: Parameters<typeof siteOn>[1] = {}) {
  const rt = await siteOn(backend, { network: { allow_private_targets: true }, ...input })
  const app = await testApp(rt)
  const admin = await ownerSession(rt, 'admin@example.com')
  return { rt, app, admin, get: async (path: string) => json(await as(app, admin.headers)('GET', path)) }
}

describeBackends('scheduled work', (backend) => {
  test('every task with its title, period, last run, duration, outcome and next run; a failing task shows its error', async () => {
    const { rt, get } = await site(backend)
    registerSiteWork(rt)
    rt.scheduler.every('test.broken', 60_000, () => { throw new Error('the disk fell off') }, { title: 'A task that fails' })
    await rt.scheduler.tick()
    const { body } = await get('/api/v1/admin/tasks')
    const byId: Record<string, unknown> = Object.fromEntries((body.tasks as { id: string }[]).map((t) => [t.id, t]))
    expect(Object.keys(byId).sort()).toEqual(['captcha.purge', 'jobs.drain', 'keys.last-used', 'limits.sweep', 'servers.purge', 'sessions.purge', 'stats.ping', 'stats.retention', 'test.broken'])
    const now = rt.clock.now()
    expect(byId['sessions.purge']).toEqual({
      id: 'sessions.purge', title: 'Expired sessions and reset links purge', everyMs: HOUR, running: false, runs: 1, leftToOthers: 0,
      lastRunAt: new Date(now).toISOString(), lastDurationMs: 0, outcome: 'ok', error: null, nextRunAt: new Date(now + HOUR).toISOString(),
    })
    // The ping round runs on multiples of its interval: not yet.
    expect(byId['stats.ping']).toMatchObject({ title: 'Ping round, with its hourly and daily rollups', runs: 0, lastRunAt: null, outcome: null, error: null })
    expect(byId['test.broken']).toMatchObject({ runs: 1, outcome: 'error', error: 'the disk fell off' })
  })

  test('the delivery queue: pending, retrying, given up in the last 24 h (tests left out); the job queue; the last ping round', async () => {
    const game = await javaServer({ online: 3, max: 10, motd: 'up' })
    try {
      const { rt, get } = await site(backend, { stats: { ping_timeout_seconds: 10 } })
      expect((await get('/api/v1/admin/queue')).body).toEqual({
        ok: true, deliveries: { pending: 0, retrying: 0, gaveUpLast24h: 0 }, jobs: { total: 0, due: 0, running: 0 }, lastPingRound: null,
      })
      const { server } = await seedServer(rt, { name: 'Up', host: '127.0.0.1', port: game.port })
      await seedServer(rt, { name: 'Down', host: '127.0.0.1', port: await refusedPort() })
      await saveWebhook(rt, server.id, 'http://127.0.0.1:9/hook')
      for (const pseudo of ['One', 'Two', 'Three', 'Four', 'Five']) {
        rt.clock.advance(3 * HOUR)
        await recordVote(rt, server, pseudo, [])
      }
      const ids = (await rt.rows<{ id: string }>('SELECT id FROM delivery ORDER BY created_at')).map((d) => d.id)
      const now = rt.clock.now()
      await rt.rows('UPDATE delivery SET attempts = 1 WHERE id = ?', ids[1])
      await rt.rows(`UPDATE delivery SET status = 'gave_up', attempts = 8, updated_at = ? WHERE id = ?`, now - HOUR, ids[2])
      await rt.rows(`UPDATE delivery SET status = 'gave_up', attempts = 8, updated_at = ? WHERE id = ?`, now - 25 * HOUR, ids[3])
      await rt.rows(`UPDATE delivery SET test = 1 WHERE id = ?`, ids[4])
      const report = await runPingRound(rt, now, { spreadMs: 0 })
      const round = now - (now % 300_000)
      expect((await get('/api/v1/admin/queue')).body).toEqual({
        ok: true,
        deliveries: { pending: 1, retrying: 1, gaveUpLast24h: 1 },
        jobs: { total: 5, due: 5, running: 0 },
        lastPingRound: { startedAt: new Date(round).toISOString(), finishedAt: new Date(now).toISOString(), servers: 2, up: 1, down: 1, durationMs: expect.any(Number) },
      })
      expect(report).toMatchObject({ servers: 2, up: 1 })
    } finally {
      await game.close()
    }
  })
})

describe('backup from the browser', () => {
  test('a consistent SQLite file of the live database, as an attachment; the temporary copy is gone; the download is audited', async () => {
    const { rt, app, admin, get } = await site('sqlite')
    await seedServer(rt, { name: 'Backed Up' })
    const r = await call(app, 'GET', '/api/v1/admin/backup', { headers: admin.headers })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/vnd.sqlite3')
    expect(r.headers.get('cache-control')).toBe('no-store')
    const name = new Date(rt.clock.now()).toISOString().replace(/[:.]/g, '-')
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="votelist-${name}.db"`)
    const bytes = new Uint8Array(await r.arrayBuffer())
    expect(Number(r.headers.get('content-length'))).toBe(bytes.length)
    const copy = join(tempDir(), 'copy.db')
    writeFileSync(copy, bytes)
    const db = new Database(copy, { readonly: true })
    expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    expect(db.query('SELECT email FROM user ORDER BY email').all()).toEqual([{ email: 'admin@example.com' }, { email: 'owner@example.com' }])
    expect(db.query('SELECT name FROM server').all()).toEqual([{ name: 'Backed Up' }])
    db.close()
    expect(readdirSync(dirname(rt.config.database.path)).filter((f) => f.includes('backup'))).toEqual([])
    const { body } = await get('/api/v1/admin/audit')
    expect(body.entries).toEqual([{
      id: expect.any(Number), at: expect.any(String), actor: { id: admin.user.id, email: 'admin@example.com' }, action: 'site.backup',
      target: { type: 'site', id: 'database', label: `votelist-${name}.db` }, detail: { bytes: bytes.length },
    }])
  })
  // The copy holds the password hashes and the site's secret, as the database (created 0600) does;
  // it lies in the data folder until it is open. Seen once VACUUM INTO has written it, with the
  // umask of a shell (022) in effect.
  test('the temporary copy is readable by its owner only, whatever the umask', async () => {
    const { rt, app, admin } = await site('sqlite')
    const backup = rt.store.backup
    const modes: string[] = []
    rt.store.backup = async (target) => {
      await backup(target)
      modes.push((statSync(target).mode & 0o777).toString(8))
    }
    const umask = process.umask(0o022)
    try {
      const r = await call(app, 'GET', '/api/v1/admin/backup', { headers: admin.headers })
      expect(r.status).toBe(200)
      await r.arrayBuffer()
    } finally {
      process.umask(umask)
    }
    expect(modes).toEqual(['600'])
  })
})

describe('backup from the browser, asked by another site', () => {
  test('a navigation from another site (it carries the Lax session cookie) gets 403: no copy made, nothing audited; the dashboard\'s link and a typed address are served', async () => {
    const { app, admin, get } = await site('sqlite')
    for (const from of ['cross-site', 'same-site']) {
      const r = await call(app, 'GET', '/api/v1/admin/backup', { headers: { ...admin.headers, 'sec-fetch-site': from, 'sec-fetch-mode': 'navigate' } })
      const { error } = await r.json()
      expect({ from, status: r.status, code: error.code, reason: error.reason }).toEqual({ from, status: 403, code: 'FORBIDDEN', reason: 'CROSS_SITE' })
    }
    expect((await get('/api/v1/admin/audit')).body.entries).toEqual([])
    for (const from of ['same-origin', 'none']) {
      const r = await call(app, 'GET', '/api/v1/admin/backup', { headers: { ...admin.headers, 'sec-fetch-site': from } })
      expect({ from, status: r.status }).toEqual({ from, status: 200 })
      await r.arrayBuffer()
    }
  })
})

describe.if(backends.includes('postgres'))('backup from the browser on PostgreSQL', () => {
  afterEach(closeTestSites)

  test('refused with 409 CONFLICT naming pg_dump, as votelist backup is, and nothing audited', async () => {
    const { app, admin, get } = await site('postgres')
    const r = await call(app, 'GET', '/api/v1/admin/backup', { headers: admin.headers })
    expect(await json(r)).toEqual({ status: 409, body: { ok: false, error: { code: 'CONFLICT', message: POSTGRES_BACKUP, reason: 'SQLITE_ONLY' } } })
    expect(POSTGRES_BACKUP).toContain('pg_dump')
    expect((await get('/api/v1/admin/audit')).body.entries).toEqual([])
  })
})

describe('the configuration in effect', () => {
  test('each key with its value as written in TOML, its default and its source; URL passwords masked', async () => {
    const { rt, get } = await site('sqlite', {
      site: { name: 'Config Test', ipv4_url: 'http://voter:hunter2@v4.example.org' },
      deliveries: { retry_delays: ['90s', '2h'] },
      http: { port: 9090 },
    })
    const { body } = await get('/api/v1/admin/config')
    expect(body.file).toBeNull()
    expect(body.siteUrl).toEqual({ base: 'http://localhost:9090', configured: false, origins: ['http://localhost:9090', 'http://127.0.0.1:9090', 'http://[::1]:9090'] })
    const byKey: Record<string, unknown> = Object.fromEntries((body.settings as { key: string }[]).map((s) => [s.key, s]))
    expect(byKey['site.name']).toEqual({ key: 'site.name', value: '"Config Test"', default: '"My Server List"', source: 'file', secret: false })
    expect(byKey['site.ipv4_url']).toMatchObject({ value: '"http://voter:********@v4.example.org"', source: 'file' })
    expect(byKey['deliveries.retry_delays']).toEqual({ key: 'deliveries.retry_delays', value: '["90s", "2h"]', default: '["1m", "5m", "15m", "30m", "1h", "2h", "5h"]', source: 'file', secret: false })
    expect(byKey['deliveries.webhook_timeout']).toMatchObject({ value: '"10s"', default: '"10s"', source: 'default' })
    expect(byKey['stats.ping_interval_seconds']).toMatchObject({ value: '300', source: 'default' })
    expect(byKey['database.path']).toMatchObject({ value: JSON.stringify(rt.config.database.path), source: 'default' })
    expect(JSON.stringify(body)).not.toContain('hunter2')
  })

  test('the masking rules: a secret key shows only a mask, and every URL password is hidden', () => {
    expect(showValue(str('', 'a password', {}), '')).toBe('""')
    expect(showValue({ ...str('', 'a password'), secret: true }, 'hunter2')).toBe('"********"')
    expect(maskUrlPasswords('postgres://votes:s3cr%40t@db.example.org:5432/votelist')).toBe('postgres://votes:********@db.example.org:5432/votelist')
    expect(maskUrlPasswords('https://user@example.org/ and https://a:b@c.example.org')).toBe('https://user@example.org/ and https://a:********@c.example.org')
  })

  // PostgreSQL's URLs also take the password as a parameter (libpq's password and sslpassword),
  // which databaseLabel already leaves out of the logs.
  test('a database URL carrying its password as a parameter shows it masked too', () => {
    const url = 'postgres://votes@db.example.org:5432/votelist?password=hunter2&sslmode=require&sslpassword=keyphrase'
    const shown = effectiveConfig(parseConfig({ database: { url } }, tempDir())).find((s) => s.key === 'database.url')
    expect(shown?.value).toBe('"postgres://votes@db.example.org:5432/votelist?password=********&sslmode=require&sslpassword=********"')
  })
})

describeBackends('the audit log', (backend) => {
  test('newest first, paged with next/before; bad paging values are refused', async () => {
    const { rt, app, admin, get } = await site(backend)
    const owner = await ownerSession(rt, 'owner@example.com')
    const asAdmin = as(app, admin.headers)
    for (const admin of [true, false, true, false, true]) await asAdmin('PATCH', `/api/v1/admin/users/${owner.user.id}`, { admin })
    const first = (await get('/api/v1/admin/audit?limit=2')).body
    expect(first.entries.map((e: { action: string }) => e.action)).toEqual(['user.promote', 'user.demote'])
    const second = (await get(`/api/v1/admin/audit?limit=2&before=${first.next}`)).body
    expect(second.entries.map((e: { action: string }) => e.action)).toEqual(['user.promote', 'user.demote'])
    const third = (await get(`/api/v1/admin/audit?limit=2&before=${second.next}`)).body
    expect(third).toEqual({ ok: true, entries: [expect.objectContaining({ action: 'user.promote' })], next: null })
    expect((await get('/api/v1/admin/audit?limit=0')).body.error).toEqual({ code: 'INVALID_PARAMETER', message: 'limit must be an integer from 1 to 200', field: 'limit' })
    expect((await get('/api/v1/admin/audit?before=x')).body.error.field).toBe('before')
  })
})
