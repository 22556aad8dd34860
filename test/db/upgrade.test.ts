// An administrator upgrading from the first release: its database, as that release left it after
// a kill -9 (a retry scheduled, a push cut short), opened by this one. Built from the first
// release's nine migrations (checked below to be the very files it shipped) and rows written the
// way its code wrote them (payloads, hashes, the session token), not by this release's code.
import { Database } from 'bun:sqlite'
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SignJWT } from 'jose'
import { EXIT, runCli } from '../../src/cli.ts'
import { manualClock } from '../../src/clock.ts'
import { acquireInstanceLock } from '../../src/db/instance-lock.ts'
import { migrate } from '../../src/db/migrate.ts'
import { migrations } from '../../src/db/migrations.ts'
import { openDatabase } from '../../src/db/open.ts'
import { registerDeliveryWork } from '../../src/deliveries/attempt.ts'
import { memoryLogger } from '../../src/log.ts'
import { recoverInterruptedWork } from '../../src/site.ts'
import { openSqliteStore } from '../../src/store.ts'
import { recordVote } from '../../src/votes/service.ts'
import { call, cleanupTemp, sqliteSite, tempDir, testApp, testConfig, testLookup, type TestRuntime } from '../helpers.ts'
import { startVotifierReceiver } from '../push/votifier-receiver.ts'
import { startWebhookReceiver } from '../webhooks/webhook-receiver.ts'

const stops: (() => void)[] = []
afterEach(() => { for (const stop of stops.splice(0)) stop() })
afterAll(cleanupTemp)

// SHA-256 of the migrations of the first release (commit 2ca091e, 2026-11-22), as it shipped them.
const FIRST_RELEASE: [string, string][] = [
  ['0001_accounts_servers', '6205b93bbb59aea20d68213f18586ebc74f17e3d846ea86578f813de14c0fb5c'],
  ['0002_votes', 'c5201cc40a645e53833a16f8025b61496d31c30023c1e2bfd5d61a9718283a7d'],
  ['0003_notifications', '46bf34cd0f8efc610dd9f477f453a44db180e5028baf7fb2125ec9f1fdc93438'],
  ['0004_jobs', 'b18f211fc00ac753b58872b08681b21e1deff78dabbe6b15230c5a55af13ad6d'],
  ['0005_stats', '7c3b9a8cf947981e27142492c5132203752cfc30d892fea248b1f234e4449630'],
  ['0020_captcha', '264dd0f16f6d8ac0e2526dba140c53f00b0e77c497f8b8c52b28f4dbce7ddbb4'],
  ['0040_delivery_series', '85e9cc5b311e43974028b06765207a4567d8318499602603b79fd98b7b3e7927'],
  ['0050_stats_median', 'bff7b3364f9edf10dba5ead821c82645751de8a78efc39c1a1feb4d6cd5e51fe'],
  ['0060_attempt_series', '61979bf0088f360c646620f429b42ba0a04b32e7ad59f751e61e3ac7e14951b5'],
]
const firstRelease = migrations.slice(0, FIRST_RELEASE.length)

const T0 = Date.UTC(2026, 10, 22, 12) // the votes; the site is killed at T0 + 10 s
const MIN = 60_000
const PASSWORD = 'correct horse battery staple'
const KEY = 'vlk_FirstReleaseKey0123456789abcdef'
const REVOKED = 'vlk_FirstReleaseRevoked0123456789ab'
const SECRET = 'whsec_' + 'f'.repeat(43)
const TOKEN = 'tokFirstRelease1234567890'
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

// Rows as the first release wrote them: Steve's vote claimed; Alex's webhook push failed once
// (retry due at T0 + 1 min) and his Votifier push was under way when the process died (its job
// leased for 10 minutes, its attempt still pending).
async function firstReleaseDatabase(path: string, ports: { webhook: number; votifier: number }) {
  const db = openDatabase(path)
  migrate(db, firstRelease, T0 - 60 * MIN)
  const run = (sql: string, ...params: (string | number | null)[]) => db.run(sql, params)
  run(`INSERT INTO user (id, email, email_key, password_hash, is_admin, created_at) VALUES ('u1', 'Alice@Example.com', 'alice@example.com', ?, 1, ?)`,
    await Bun.password.hash(PASSWORD, { algorithm: 'argon2id' }), T0 - 60 * MIN)
  run(`INSERT INTO session (id, user_id, created_at, expires_at) VALUES ('sess1', 'u1', ?, ?)`, T0, T0 + 30 * 24 * 60 * MIN)
  run(`INSERT INTO server (num, id, owner_id, slug, name, host, port, created_at, updated_at) VALUES (1, 's1', 'u1', 'alpha', 'Alpha', 'play.example.com', 25565, ?, ?)`, T0 - 50 * MIN, T0 - 50 * MIN)
  run(`INSERT INTO server_mode (server_id, mode) VALUES ('s1', 'survival')`)
  run(`INSERT INTO api_key (id, server_id, hash, prefix, name, created_at, revoked_at) VALUES ('k1', 's1', ?, ?, 'plugin', ?, NULL), ('k2', 's1', ?, ?, 'old', ?, ?)`,
    sha256(KEY), KEY.slice(0, 8), T0 - 40 * MIN, sha256(REVOKED), REVOKED.slice(0, 8), T0 - 45 * MIN, T0 - 44 * MIN)
  run(`INSERT INTO webhook (server_id, url, secret, created_at, updated_at) VALUES ('s1', ?, ?, ?, ?)`, `http://127.0.0.1:${ports.webhook}/hook`, SECRET, T0 - 30 * MIN, T0 - 30 * MIN)
  run(`INSERT INTO votifier (server_id, host, port, protocol, token, created_at, updated_at) VALUES ('s1', '127.0.0.1', ?, 'v2', ?, ?, ?)`, ports.votifier, TOKEN, T0 - 30 * MIN, T0 - 30 * MIN)
  const votes = [['v1', 'Steve', T0, T0 + 5000, '203.0.113.7'], ['v2', 'Alex', T0 + 1000, null, '203.0.113.8']] as const
  for (const [id, pseudo, at, claimed, ip] of votes) {
    run(`INSERT INTO vote (id, server_id, pseudo, pseudo_key, created_at, claimed_at) VALUES (?, 's1', ?, ?, ?, ?)`, id, pseudo, pseudo.toLowerCase(), at, claimed)
    run(`INSERT INTO vote_address (vote_id, server_id, ip_key, address, created_at) VALUES (?, 's1', ?, ?, ?)`, id, `4:${ip}`, ip, at)
    run(`INSERT INTO voter_month (server_id, month, pseudo_key, pseudo, votes, last_vote_at) VALUES ('s1', '2026-11', ?, ?, 1, ?)`, pseudo.toLowerCase(), pseudo, at)
  }
  run(`INSERT INTO server_month (server_id, month, votes, last_vote_at) VALUES ('s1', '2026-11', 2, ?)`, T0 + 1000)
  const payload = JSON.stringify({ server: { id: 's1', slug: 'alpha', name: 'Alpha' }, vote: { id: 'v2', pseudo: 'Alex', createdAt: T0 + 1000 }, address: '203.0.113.8', monthlyVotes: 2 })
  const delivery = `INSERT INTO delivery (id, server_id, vote_id, channel, pseudo, payload, status, attempts, next_attempt_at, created_at, updated_at) VALUES (?, 's1', 'v2', ?, 'Alex', ?, ?, 1, ?, ?, ?)`
  const attempt = `INSERT INTO delivery_attempt (delivery_id, server_id, attempt, status, error, duration_ms, started_at, next_attempt_at) VALUES (?, 's1', 1, ?, ?, ?, ?, ?)`
  const job = `INSERT INTO job (kind, payload, run_at, attempts, lease_until, last_error, created_at) VALUES ('delivery', ?, ?, 1, ?, ?, ?)`
  const refused = `connection refused by 127.0.0.1:${ports.webhook}: nothing listens on that port`
  run(delivery, 'dw', 'webhook', payload, 'failed', T0 + 1000 + MIN, T0 + 1000, T0 + 1003)
  run(attempt, 'dw', 'failed', refused, 3, T0 + 1000, T0 + 1000 + MIN)
  run(job, '{"deliveryId":"dw"}', T0 + 1000 + MIN, null, refused, T0 + 1000)
  run(delivery, 'dv', 'votifier', payload, 'pending', null, T0 + 1000, T0 + 1000)
  run(attempt, 'dv', 'pending', null, null, T0 + 1000, null)
  run(job, '{"deliveryId":"dv"}', T0 + 1000, T0 + 1000 + 10 * MIN, null, T0 + 1000)
  for (let i = 0; i < 12; i++) run(`INSERT INTO ping_sample (server_num, t, players, up) VALUES (1, ?, ?, 1)`, T0 - (i + 1) * 5 * MIN, 40 + i)
  run(`INSERT INTO server_status (server_num, online, players_online, players_max, version, motd, latency_ms, last_ping_at) VALUES (1, 1, 40, 100, '1.21.4', 'A server', 12, ?)`, T0 - 5 * MIN)
  db.close()
  // The first release's session cookie: a jose HS256 token over the site's secret, naming the row.
  const secret = Buffer.from((openDatabase(path).query(`SELECT value FROM setting WHERE key = 'secret'`).get() as { value: string }).value, 'hex')
  return new SignJWT({ sid: 'sess1' }).setProtectedHeader({ alg: 'HS256' }).setSubject('u1')
    .setIssuedAt(Math.floor(T0 / 1000)).setExpirationTime(Math.floor((T0 + 30 * 24 * 60 * MIN) / 1000)).sign(secret)
}

describe('upgrading from the first release', () => {
  test('its nine migrations are the files it shipped, unchanged since', () => {
    expect(firstRelease.map((m) => [m.name, sha256(m.sql)])).toEqual(FIRST_RELEASE)
  })

  test('its database is migrated at the first start and everything in it still works: sessions, passwords, keys, claims, counts, queued pushes, history', async () => {
    const hooks = startWebhookReceiver(SECRET)
    const listener = startVotifierReceiver({ tokens: { MyServerList: TOKEN } })
    stops.push(hooks.stop, listener.stop)
    const path = join(tempDir(), 'votelist.db')
    const oldSession = await firstReleaseDatabase(path, { webhook: hooks.port, votifier: listener.port })

    const rt = sqliteSite(testConfig({ database: { path }, network: { allow_private_targets: true } }), { clock: manualClock(T0 + 2 * MIN), log: memoryLogger(), lookup: testLookup }) as TestRuntime
    stops.push(() => rt.db.close())
    expect(rt.migrated).toEqual(migrations.slice(FIRST_RELEASE.length).map((m) => m.name))
    expect(rt.db.query('PRAGMA foreign_key_check').all()).toEqual([])
    await recoverInterruptedWork(rt)
    registerDeliveryWork(rt.queue, rt)
    const app = await testApp(rt)
    const get = async (p: string, headers: Record<string, string> = {}) => (await call(app, 'GET', p, { headers })).json()

    // Signed in before the upgrade, still signed in; the password as the first release hashed it.
    expect(await get('/api/v1/me', { cookie: `votelist_session=${oldSession}` })).toMatchObject({ ok: true, user: { id: 'u1', email: 'Alice@Example.com', isAdmin: true } })
    expect((await call(app, 'POST', '/api/v1/auth/login', { body: { email: 'alice@example.com', password: PASSWORD } })).status).toBe(200)

    // The plugin's key still answers; the key revoked before the upgrade stays revoked.
    const key = { 'x-api-key': KEY }
    expect(await get('/api/v1/votes/check?pseudo=steve', key)).toMatchObject({ hasVoted: true, pseudo: 'steve', claimed: true })
    expect(await get('/api/v1/votes/check?ip=203.0.113.8', key)).toMatchObject({ hasVoted: true, pseudo: 'Alex', claimed: false })
    expect((await get('/api/v1/votes/check?pseudo=steve', { 'x-api-key': REVOKED })).error.code).toBe('INVALID_KEY')
    expect(await (await call(app, 'POST', '/api/v1/votes/claim?pseudo=steve', { headers: key })).json()).toEqual({ ok: true, claimed: false, reason: 'ALREADY_CLAIMED' })
    expect(await (await call(app, 'POST', '/api/v1/votes/claim?pseudo=alex', { headers: key })).json()).toMatchObject({ ok: true, claimed: true, vote: { id: 'v2', pseudo: 'Alex' } })
    expect(await get('/api/v1/server', key)).toMatchObject({ month: '2026-11', rank: 1, monthlyVotes: 2, totalVotes: 2, topVoters: [{ pseudo: 'Steve', votes: 1 }, { pseudo: 'Alex', votes: 1 }] })

    // The interrupted push and the scheduled retry are both delivered, each once, as the
    // first release would have sent them (the webhook signed with the secret it generated).
    await rt.queue.drain()
    await listener.waitVotes(1)
    expect(listener.votes.map((v) => [v.username, v.address])).toEqual([['Alex', '203.0.113.8']])
    await hooks.waitFor(1)
    expect(hooks.received.map((h) => [h.signatureValid, h.headers['x-tsm-delivery'], h.json])).toEqual([[true, 'dw', {
      event: 'vote', server: { id: 's1', slug: 'alpha', name: 'Alpha' }, vote: { id: 'v2', pseudo: 'Alex', createdAt: new Date(T0 + 1000).toISOString() }, monthlyVotes: 2,
    }]])
    expect(rt.db.query('SELECT count(*) AS n FROM job').get()).toEqual({ n: 0 })
    const owner = { cookie: `votelist_session=${oldSession}` }
    const attempts = (await get('/api/v1/me/servers/alpha/deliveries', owner)).deliveries.map((d: Record<string, unknown>) => [d.channel, d.attempt, d.status])
    expect(attempts.sort()).toEqual([['votifier', 1, 'failed'], ['votifier', 2, 'succeeded'], ['webhook', 1, 'failed'], ['webhook', 2, 'succeeded']])

    // The player counts measured before the upgrade are the server's history.
    expect((await get('/api/v1/servers/alpha/history?range=24h')).summary).toMatchObject({ points: 12, min: 40, peak: 51, uptime: 1 })

    // A vote after the upgrade is counted with the ones before it, and the interval still holds
    // for an address that voted before.
    const alpha = { id: 's1', slug: 'alpha', name: 'Alpha', edition: 'java' as const }
    await recordVote(rt, alpha, 'Notch', ['203.0.113.9'])
    expect(await get('/api/v1/server', key)).toMatchObject({ monthlyVotes: 3, totalVotes: 3 })
    expect(rt.db.query(`SELECT votes FROM server_month WHERE server_id = 's1'`).get()).toEqual({ votes: 3 })
    await expect(recordVote(rt, alpha, 'Herobrine', ['203.0.113.7'])).rejects.toThrow('this address has already voted for Alpha')
  })

  // Versions before 2026-11-28 let SQLite create the database with the umask's mode: from a shell
  // (022) every user of the machine could read the password hashes and the site's secret, which
  // signs sessions, and forge an administrator's session. An upgrade closes it to them; the
  // owner's and the group's rights are left as the administrator set them.
  test('a database an older version left readable by every user (644) is closed to them by the upgrade: 640 with its -wal and -shm', () => {
    const path = join(tempDir(), 'votelist.db')
    const db = new Database(path, { create: true }) // as they opened it: the umask's mode
    db.run('PRAGMA journal_mode = WAL')
    migrate(db, firstRelease, T0)
    db.close()
    chmodSync(path, 0o644) // whatever this process's umask
    const { store } = openSqliteStore(path, T0, { requireVerification: false })
    const mode = (file: string) => (statSync(file).mode & 0o777).toString(8)
    const modes = { db: mode(path), wal: mode(`${path}-wal`), shm: mode(`${path}-shm`) }
    store.close()
    expect(modes).toEqual({ db: '640', wal: '640', shm: '640' })
  })

  // serve takes the instance lock before it opens the database, so that a newer version tried by
  // hand beside the running service does not migrate the database under it. The other commands
  // of a newer version (a binary copied over the old one before the restart, or tried from a
  // download folder) did: the older site went on writing to a schema it does not know, and could
  // not start again.
  test('a command of this version beside a running serve of an older one refuses to migrate its database, and leaves it as it was', async () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'data'))
    const path = join(dir, 'data', 'votelist.db')
    const db = openDatabase(path)
    migrate(db, firstRelease, T0)
    db.close()
    writeFileSync(join(dir, 'votelist.toml'), '[site]\nservice_name = "UpgradeTest"\n')
    const command = async (...argv: string[]) => {
      const err: string[] = []
      const code = await runCli([...argv, '--config', join(dir, 'votelist.toml')], { out: () => {}, err: (l) => err.push(l), cwd: dir, lookup: testLookup })
      return { code, err: err.join('\n') }
    }
    const applied = () => {
      const read = openDatabase(path)
      const n = (read.query('SELECT count(*) AS n FROM schema_migration').get() as { n: number }).n
      read.close()
      return n
    }
    const olderServe = acquireInstanceLock(path)
    for (const argv of [['migrate'], ['user', 'add', '--email', 'new@example.com', '--password', PASSWORD], ['db', 'copy', '--to', 'postgres://votelist@127.0.0.1:1/unreachable']]) {
      expect(await command(...argv)).toEqual({ code: EXIT.failure, err: `votelist ${argv[0]}: a votelist serve is running on ${path} and the database lacks ${migrations.slice(FIRST_RELEASE.length).map((m) => m.name).join(', ')}: the serve is an older version (or this one still migrating as it starts), and this command would migrate the database under it; restart the service with this version (it migrates the database as it starts), then run the command again` })
    }
    expect(applied()).toBe(FIRST_RELEASE.length)
    olderServe.release()
    expect((await command('migrate')).code).toBe(EXIT.ok)
    expect(applied()).toBe(migrations.length)
  })
})
