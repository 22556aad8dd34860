import { afterAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { issueResetToken } from '../../src/accounts/password-reset.ts'
import { changeUser } from '../../src/admin/users.ts'
import { runCli } from '../../src/cli.ts'
import { parseConfig } from '../../src/config/load.ts'
import { use } from '../../src/db/store.ts'
import { registerDeliveryWork } from '../../src/deliveries/attempt.ts'
import { checkBanner } from '../../src/media/banner.ts'
import { imageHash } from '../../src/media/icon.ts'
import { openStore } from '../../src/runtime.ts'
import { createSite, type Site } from '../../src/site.ts'
import { DAY, HOUR } from '../../src/stats/repo.ts'
import { purgeSamplesBefore, recordRound } from '../../src/stats/round.ts'
import { recordVote } from '../../src/votes/service.ts'
import { backends, createEmptyDatabase } from '../backends.ts'
import { call, cleanupTemp, seedServer, tempDir, testApp, testLookup, testRuntime, type TestRuntime } from '../helpers.ts'
import { png } from '../media/images.ts'
import { ownerSession } from '../owner/session.ts'
import { startVotifierReceiver } from '../push/votifier-receiver.ts'
import { cli } from '../spawn.ts'
import { startWebhookReceiver } from '../webhooks/webhook-receiver.ts'

afterAll(cleanupTemp)

const NOW = Date.UTC(2026, 10, 22, 14, 37, 21, 500)
const SECRET = 'whsec_' + 'm'.repeat(43)

async function run(argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), cwd: tempDir(), lookup: testLookup })
  return { code, out, err: err.join('\n') }
}

// A config file naming the SQLite site `s`'s database and an empty PostgreSQL database to copy it
// into. failedCopy(): a copy that should fail, with its exit code, its message and the number of
// tables it left in the target.
async function copyInto(s: TestRuntime) {
  const configPath = join(tempDir(), 'votelist.toml')
  writeFileSync(configPath, `[database]\npath = "${s.config.database.path}"\n`)
  const target = await createEmptyDatabase()
  const { SQL } = await import('bun')
  const pg = new SQL({ url: target.url, max: 1 })
  const failedCopy = async () => {
    const r = await run(['db', 'copy', '--to', target.url, '--config', configPath])
    const [{ tables }] = await pg.unsafe("SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_schema = 'public'")
    return { code: r.code, err: r.err, tables }
  }
  const close = async () => {
    await pg.close()
    await target.drop()
  }
  return { configPath, target, failedCopy, close }
}

// A SQLite site a year old: two servers pinged every hour for a year (then retention as it runs),
// votes all year long, deliveries delivered, failed and waiting for their retry, an owner's
// session and an API key; an icon, a banner, a verified listing, a Discord webhook, the last
// ping round, a disabled account with its server, a reset link and the audit log.
async function yearOldSite() {
  const rt = testRuntime({ network: { allow_private_targets: true } }, NOW - 365 * DAY)
  const votifier = startVotifierReceiver({ tokens: { MyServerList: 'tok' } })
  const webhook = startWebhookReceiver(SECRET)
  registerDeliveryWork(rt.queue, rt)
  const one = await seedServer(rt, { name: 'Year Valley', modes: ['survival'] })
  const two = await seedServer(rt, { name: 'Second Peak', edition: 'bedrock', modes: ['skyblock'] }, 'second@example.com')
  await rt.store.channels.putVotifier({ serverId: one.server.id, host: '127.0.0.1', port: votifier.port, protocol: 'v2', publicKey: null, token: 'tok' }, rt.clock.now())
  await rt.store.channels.putWebhook(one.server.id, webhook.url(), SECRET, rt.clock.now())
  await rt.store.channels.putWebhook(two.server.id, 'http://127.0.0.1:9/gone', SECRET, rt.clock.now())
  const targets = rt.store.servers.pingTargets()
  for (let h = 0, t = NOW - 365 * DAY; t <= NOW; h++, t += HOUR) {
    rt.clock.set(t)
    const measured = targets.map((target) => {
      const players = Math.round(20 + 15 * Math.sin((t / DAY) * 2 * Math.PI) + target.num * 3 + (h % 7))
      return { serverNum: target.num, serverId: target.id, at: t + 1000, status: { online: true, playersOnline: players, playersMax: 100, version: '1.21', motd: 'hi', styledMotd: null, favicon: null, latencyMs: 12, error: null } }
    })
    await rt.store.write((tx) => recordRound(tx, t, targets, measured))
    if (h % 61 === 0) {
      for (const [i, s] of [one, two].entries()) await recordVote(rt, s.server, `player${h % 17}x${i}`, [`203.0.113.${h % 200}`])
      await rt.queue.drain()
    }
    if (h % 24 === 0) await purgeSamplesBefore(rt, t - 35 * DAY)
  }
  // The last vote's webhook fails, and its retry waits in the job queue.
  await recordVote(rt, two.server, 'lastVoter', ['198.51.100.1'])
  await rt.queue.drain()
  const session = await ownerSession(rt, 'admin@example.com', true)
  const icon = png(64, 64, [200, 40, 40])
  await rt.store.write(function* (tx) {
    yield* use(tx.stats.recordIcon(one.server.num, { png: icon, hash: imageHash(icon) }, NOW))
    yield* use(tx.stats.recordLastRound({ t: NOW - (NOW % 300_000), servers: 2, up: 2, durationMs: 41, finishedAt: NOW }))
    yield* use(tx.servers.setBanner(two.server.num, checkBanner(png(468, 60, [10, 20, 30]), 'image/png'), NOW))
    yield* use(tx.servers.verificationToken(one.server.id, 'vl-0123456789ab'))
    yield* use(tx.servers.setVerified(one.server.id, NOW - DAY))
  })
  await rt.store.channels.putDiscord(one.server.id, 'https://discord.com/api/webhooks/1234567890123456789/' + 't'.repeat(68), NOW)
  const gone = await seedServer(rt, { name: 'Gone Quiet', host: 'quiet.example.com' }, 'disabled@example.com')
  await changeUser(rt, session.user, gone.owner.id, { disabled: true })
  await issueResetToken(rt, session.user, two.owner.id)
  votifier.stop()
  webhook.stop()
  const configPath = join(tempDir(), 'votelist.toml')
  writeFileSync(configPath, `[database]\npath = "${rt.config.database.path}"\n[network]\nallow_private_targets = true\n[votes]\ncaptcha = "off"\n`)
  return { rt, one, two, gone, session, configPath, icon }
}

// Every answer of the API a visitor, a plugin, an owner and an administrator get, with its status.
async function answers(site: Site, s: Awaited<ReturnType<typeof yearOldSite>>) {
  const app = await testApp(site)
  const paths: [string, Record<string, string>][] = [['/api/v1/auth/status', {}], ['/api/v1/stats/global', {}]]
  for (const { server, key } of [s.one, s.two, s.gone]) {
    paths.push([`/api/v1/servers/${server.slug}`, {}], [`/api/v1/servers/${server.slug}/badge.svg`, {}], [`/serveur/${server.slug}`, {}])
    paths.push([`/api/v1/servers/${server.slug}/icon.png`, {}], [`/api/v1/servers/${server.slug}/banner`, {}])
    for (const range of ['24h', '7d', '30d', '90d', '1y', 'all']) paths.push([`/api/v1/servers/${server.slug}/history?range=${range}`, {}], [`/api/v1/stats/global?range=${range}&scope=survival`, {}])
    for (const path of ['/api/v1/server', '/api/v1/votes?limit=1000', '/api/v1/votes/check?pseudo=lastVoter']) paths.push([path, { 'x-api-key': key }])
    for (const path of ['', '/deliveries?limit=200', '/keys', '/votifier', '/webhook', '/discord', '/verification']) paths.push([`/api/v1/me/servers/${server.slug}${path}`, s.session.headers])
  }
  paths.push(['/', {}], ['/api/v1/me', s.session.headers], ['/api/v1/me/servers', s.session.headers])
  for (const path of ['servers', 'users', 'audit', 'queue']) paths.push([`/api/v1/admin/${path}`, s.session.headers])
  const out: Record<string, { status: number; body: string }> = {}
  for (const [path, headers] of paths) {
    const r = await call(app, 'GET', path, { headers })
    const bytes = Buffer.from(await r.arrayBuffer())
    out[`${path} ${headers['x-api-key'] ?? ''}`] = { status: r.status, body: r.headers.get('content-type')?.startsWith('image/png') ? bytes.toString('base64') : bytes.toString() }
  }
  return out
}

describe.if(backends.includes('postgres'))('votelist db copy', () => {
  test('a site with votes, deliveries and a year of statistics answers the same from the API after the copy', async () => {
    const s = await yearOldSite()
    const target = await createEmptyDatabase()
    try {
      const before = await answers(s.rt, s)
      // What main's features left in the site shows before the copy (so that the comparison is not of two refusals).
      const answer = (path: string) => before[`${path} `]
      expect(answer(`/api/v1/servers/${s.one.server.slug}/icon.png`)).toEqual({ status: 200, body: Buffer.from(s.icon).toString('base64') })
      expect(answer(`/api/v1/servers/${s.two.server.slug}/banner`).status).toBe(200)
      expect(answer(`/api/v1/me/servers/${s.one.server.slug}/discord`).status).toBe(200)
      expect(JSON.parse(answer(`/api/v1/me/servers/${s.one.server.slug}/verification`).body)).toMatchObject({ token: 'vl-0123456789ab', verified: true })
      expect(answer(`/api/v1/servers/${s.gone.server.slug}`).status).toBe(404)
      expect(JSON.parse(answer('/api/v1/admin/queue').body).lastPingRound).toMatchObject({ servers: 2, up: 2, durationMs: 41 })
      const counts = Object.fromEntries(['vote', 'delivery', 'delivery_attempt', 'job', 'ping_sample', 'ping_hourly', 'ping_daily', 'global_daily', 'session', 'api_key',
        'server_icon', 'server_banner', 'discord', 'password_reset', 'audit_event', 'last_ping_round']
        .map((t) => [t, (s.rt.db.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]))
      for (const t of ['server_icon', 'server_banner', 'discord', 'password_reset', 'last_ping_round']) expect(counts[t]).toBe(1)
      expect(counts.audit_event).toBe(2) // the account disabled, the reset link
      expect(counts.ping_daily).toBeGreaterThanOrEqual(2 * 365)
      expect(counts.job).toBeGreaterThan(0) // a retry waiting
      expect(counts.delivery_attempt).toBeGreaterThan(counts.vote)

      const copy = await run(['db', 'copy', '--to', target.url, '--config', s.configPath])
      expect(copy.err).toBe('')
      expect(copy.code).toBe(0)
      for (const [table, n] of Object.entries(counts)) expect(copy.out).toContain(`${table.padEnd(16)}  ${n}`)
      expect(copy.out.at(-1)).toMatch(/^copied \d+ rows of 29 tables from .* to postgres:\/\/.*; every table holds as many rows as the SQLite file$/)

      const opened = await openStore(parseConfig({ database: { url: target.url }, network: { allow_private_targets: true }, votes: { captcha: 'off' } }, tempDir()), { clock: s.rt.clock, log: s.rt.log })
      try {
        const pg = createSite(opened, { lookup: testLookup })
        expect(await answers(pg, s)).toEqual(before)
        // The copy goes on where the site was: new rows get new ids, the old session still signs in.
        const fourth = await seedServer(pg, { name: 'After Move' }, 'after@example.com')
        expect(fourth.server.num).toBe(4)
        const lastJob = (s.rt.db.query('SELECT max(id) AS n FROM job').get() as { n: number }).n
        expect(await pg.store.jobs.enqueue({ kind: 'x' }, s.rt.clock.now())).toBe(lastJob + 1)
        await changeUser(pg, s.session.user, s.gone.owner.id, { disabled: false })
        expect((await pg.store.audit.page(Number.MAX_SAFE_INTEGER, 1))[0]).toMatchObject({ id: 3, action: 'user.enable' })
      } finally {
        await opened.store.close()
      }
    } finally {
      await target.drop()
    }
  }, 120_000)

  test('a site taking votes during the copy is copied as one consistent moment of it', async () => {
    const rt = testRuntime({}, NOW)
    const { server } = await seedServer(rt)
    const configPath = join(tempDir(), 'votelist.toml')
    writeFileSync(configPath, `[database]\npath = "${rt.config.database.path}"\n`)
    const target = await createEmptyDatabase()
    try {
      let copying = true
      let written = 0
      const writer = (async () => {
        while (copying || written < 50) {
          rt.clock.advance(1000)
          await recordVote(rt, server, `live${written}`, [`10.${(written >> 8) & 255}.${written & 255}.1`])
          written++
          await Bun.sleep(0)
        }
      })()
      const copy = await run(['db', 'copy', '--to', target.url, '--config', configPath])
      copying = false
      await writer
      expect([copy.code, copy.err]).toEqual([0, ''])
      const { SQL } = await import('bun')
      const pg = new SQL({ url: target.url, max: 1 })
      const [{ votes, counted }] = await pg.unsafe('SELECT (SELECT count(*) FROM vote)::int AS votes, (SELECT coalesce(sum(votes), 0) FROM server_month)::int AS counted')
      await pg.close()
      // Every vote with its month counter, as at one moment, while the site went on voting.
      expect(counted).toBe(votes)
      expect(copy.out).toContain(`vote              ${votes}`)
      expect(votes).toBeLessThanOrEqual(written)
    } finally {
      await target.drop()
    }
  })

  // A copy cut short (a value PostgreSQL refuses, a lost connection, Ctrl-C) must leave the
  // database as empty as it found it: the next try would otherwise be refused as "not empty".
  test('a copy that fails half-way leaves the database empty, and runs again once the cause is fixed', async () => {
    const s = testRuntime()
    await seedServer(s, {})
    // SQLite keeps what it is given; PostgreSQL's bigint refuses it.
    s.db.run("UPDATE user SET created_at = 'yesterday'")
    const { configPath, target, failedCopy, close } = await copyInto(s)
    try {
      expect(await failedCopy()).toEqual({
        code: 1, err: 'votelist db: table user: PostgreSQL refused a row (invalid input syntax for type bigint: "yesterday"); nothing was written, the database is still empty', tables: 0,
      })
      s.db.run('UPDATE user SET created_at = 1')
      const again = await run(['db', 'copy', '--to', target.url, '--config', configPath])
      expect([again.code, again.err]).toEqual([0, ''])
    } finally {
      await close()
    }
  })

  // `--to -`: the URL with its password from standard input, never on the command line.
  test('--to - reads the URL from standard input and copies as --to URL does', async () => {
    const s = testRuntime()
    await seedServer(s, { name: 'Piped Valley' })
    s.db.close()
    const configPath = join(tempDir(), 'votelist.toml')
    writeFileSync(configPath, `[database]\npath = "${s.config.database.path}"\n`)
    const target = await createEmptyDatabase()
    try {
      const r = await cli(['db', 'copy', '--to', '-', '--config', configPath], { stdin: `${target.url}\n` })
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
      expect(r.stdout).toMatch(/^server +1$/m)
      expect(r.stdout).toContain('every table holds as many rows as the SQLite file')
      const { SQL } = await import('bun')
      const pg = new SQL({ url: target.url, max: 1 })
      expect(await pg.unsafe('SELECT name FROM server')).toEqual([{ name: 'Piped Valley' }])
      await pg.close()
    } finally {
      await target.drop()
    }
  })

  // A table added to the SQLite file by hand (or by another tool) has no place in votelist's
  // PostgreSQL schema.
  test('a table of the SQLite file that votelist\'s PostgreSQL schema lacks is named, and nothing is written', async () => {
    const s = testRuntime()
    await seedServer(s, {})
    s.db.run('CREATE TABLE notes (body TEXT)')
    s.db.run("INSERT INTO notes VALUES ('keep me')")
    const { failedCopy, close } = await copyInto(s)
    try {
      expect(await failedCopy()).toEqual({
        code: 1,
        err: 'votelist db: table notes of the SQLite file is not in votelist\'s PostgreSQL schema (it was not made by votelist): drop it from the SQLite file (DROP TABLE notes, after a votelist backup if you need its rows), or copy it yourself once the copy is done; nothing was written, the database is still empty',
        tables: 0,
      })
    } finally {
      await close()
    }
  })

  test('a database that is not empty is refused, and nothing is written into it', async () => {
    const s = testRuntime()
    await seedServer(s, {})
    const configPath = join(tempDir(), 'votelist.toml')
    writeFileSync(configPath, `[database]\npath = "${s.config.database.path}"\n`)
    const target = await createEmptyDatabase()
    try {
      const { SQL } = await import('bun')
      const pg = new SQL({ url: target.url, max: 1 })
      await pg.unsafe('CREATE TABLE notes (body text)')
      const r = await run(['db', 'copy', '--to', target.url, '--config', configPath])
      expect(r.code).toBe(1)
      expect(r.err).toContain('is not empty (tables: notes): db copy writes only into an empty database; create a new one (CREATE DATABASE) and give its URL')
      expect(await pg.unsafe("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).toEqual([{ table_name: 'notes' }])
      await pg.close()
    } finally {
      await target.drop()
    }
  })
})

describe('votelist db copy, refused before anything is done', () => {
  test('a --to that is not a postgres:// URL is a usage error; a site already on PostgreSQL is refused', async () => {
    const bad = await run(['db', 'copy', '--to', 'mysql://db/site'])
    expect([bad.code, bad.err]).toEqual([2, 'votelist db: --to: must be a postgres:// URL (got mysql://…)\nRun "votelist help" for usage.'])
    expect((await run(['db', 'copy'])).err).toContain('--to is required')
    const piped = await cli(['db', 'copy', '--to', '-'], { stdin: 'mysql://db/site\n' })
    expect([piped.code, piped.stderr]).toEqual([2, 'votelist db: --to: must be a postgres:// URL (got mysql://…)\nRun "votelist help" for usage.'])
    const configPath = join(tempDir(), 'votelist.toml')
    writeFileSync(configPath, '[database]\nurl = "postgres://votelist:secret@127.0.0.1:1/site"\n')
    const pg = await run(['db', 'copy', '--to', 'postgres://votelist@127.0.0.1:1/other', '--config', configPath])
    expect([pg.code, pg.err]).toEqual([1, 'votelist db: the site\'s database is already PostgreSQL (postgres://votelist@127.0.0.1:1/site): db copy moves a SQLite site'])
  })

  test('a --to that cannot be reached is named as --to (the command line), not database.url, without its password', async () => {
    const s = testRuntime()
    await seedServer(s, {})
    const configPath = join(tempDir(), 'votelist.toml')
    writeFileSync(configPath, `[database]\npath = "${s.config.database.path}"\n`)
    // Port 1 of the loopback: nothing listens there, the connection is refused at once.
    const r = await run(['db', 'copy', '--to', 'postgres://votelist:secret@127.0.0.1:1/site', '--config', configPath])
    expect(r.code).toBe(74)
    expect(r.err).toStartWith('votelist db: cannot connect to PostgreSQL at postgres://votelist@127.0.0.1:1/site: ')
    expect(r.err).toEndWith(' (--to)')
    expect(r.err).not.toContain('secret')
  })
})
