// The vote writer (src/votes/writer.ts): votes written on a thread of their own, with a
// connection of its own to the site's file. What the vote path relies on: a vote resolves only
// once it is in the database with its counters and queued deliveries, a refusal crosses back with
// its status, body fields and headers, a vote for a server unlisted a moment ago is refused, the
// site is told when a delivery is due, and a thread that cannot start leaves the votes to the
// site's own thread.
import { afterAll, describe, expect, test } from 'bun:test'
import { ApiError } from '../../src/http/errors.ts'
import { memoryLogger } from '../../src/log.ts'
import { listingPolicy } from '../../src/servers/service.ts'
import { recordVote, type CastVote, type VoteJob } from '../../src/votes/service.ts'
import { createVoteWriter, type VoteWriter } from '../../src/votes/writer.ts'
import { loadConfig } from '../../src/config/load.ts'
import { cleanupTemp, seedServer, sqliteSite, tempDir, testRuntime } from '../helpers.ts'
import { startServer, stopServer, writeLoadConfig } from '../real-server.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

const HOUR = 3_600_000

async function setup() {
  const rt = testRuntime()
  const { server } = await seedServer(rt, { name: 'Thread Test' })
  const version = (rt.db.query('SELECT n FROM listing_version').get() as { n: number }).n
  const log = memoryLogger()
  let dues = 0
  const writer = createVoteWriter({ path: rt.config.database.path, policy: listingPolicy(rt.config), log, onDue: () => dues++, checkpointing: () => false, shareGate: (gate) => rt.store.shareWriteGate!(gate) })
  const target = { id: server.id, slug: server.slug, name: server.name, edition: server.edition }
  const job = (pseudo: string, address: string, over: Partial<VoteJob> = {}): VoteJob =>
    ({ found: { target, version }, pseudo, addresses: [address], now: rt.clock.now(), intervalMs: HOUR, ...over })
  // The first vote starts the thread and is left to the site's thread (null); the thread says when
  // it is ready.
  const ready = async (w: VoteWriter) => {
    expect(w.write(job('Starter', '192.0.2.1'))).toBeNull()
    await until(() => log.lines.some((l) => l.includes('votes are written on a thread of their own')), 'the vote writer to be ready')
  }
  const count = (sql: string, ...args: string[]) => (rt.db.query(sql).get(...args) as { n: number }).n
  return { rt, server, writer, job, ready, log, count, dues: () => dues }
}

describe('the vote writer\'s thread', () => {
  test('votes sent together are each written with their counters and deliveries beside the site\'s own writes; a refusal crosses back whole', async () => {
    const { rt, server, writer, job, ready, count, dues } = await setup()
    rt.store.channels.putWebhook(server.id, 'https://hooks.example.net/votes', 'whsec_' + 's'.repeat(43), rt.clock.now())
    await ready(writer)

    const jobs = Array.from({ length: 60 }, (_, i) => job(`Player_${i}`, `198.51.100.${i + 1}`))
    // The same pseudo again, from another address, in the same batch: refused alone.
    jobs.push(job('Player_7', '203.0.113.9'))
    const thread = Promise.allSettled(jobs.map((j) => writer.write(j)!))
    // Meanwhile the site's own connection writes too (sharing the thread's write lock).
    const site = await Promise.all(Array.from({ length: 20 }, (_, i) => recordVote(rt, server, `Site_${i}`, [`192.0.2.${i + 10}`])))
    const settled = await thread
    const written = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value as CastVote] : []))
    const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []))
    expect(written).toHaveLength(60)
    expect(refused).toHaveLength(1)
    const e = refused[0] as ApiError
    expect(e).toBeInstanceOf(ApiError)
    expect([e.status, e.errorCode]).toEqual([429, 'VOTE_TOO_SOON'])
    expect(e.message).toContain('this pseudo has already voted for Thread Test')
    expect(e.extra.nextVoteAt).toBe(new Date(written.find((w) => w.recorded.vote.pseudo === 'Player_7')!.recorded.vote.createdAt + HOUR).toISOString())
    expect(Number(e.headers['Retry-After'])).toBeGreaterThan(0)

    // Exactly the written votes, each with its address, its delivery and its job; the counter agrees.
    const ids = (rt.db.query('SELECT id FROM vote ORDER BY id').all() as { id: string }[]).map((r) => r.id)
    expect(ids).toEqual([...written.map((w) => w.recorded.vote.id), ...site.map((v) => v.vote.id)].sort())
    expect(count('SELECT count(*) AS n FROM vote_address')).toBe(80)
    expect(count("SELECT count(*) AS n FROM delivery WHERE channel = 'webhook'")).toBe(80)
    expect(count('SELECT count(*) AS n FROM job')).toBe(80)
    expect(count('SELECT coalesce(sum(votes), 0) AS n FROM server_month WHERE server_id = ?', server.id)).toBe(80)
    // Times strictly increase within the server, even within one millisecond.
    const times = [...written.map((w) => w.recorded.vote.createdAt), ...site.map((v) => v.vote.createdAt)]
    expect(new Set(times).size).toBe(80)
    expect(written.every((w) => w.reread === null)).toBe(true)
    // The site was told a delivery was due.
    expect(dues()).toBeGreaterThan(0)

    await writer.stop()
    expect(writer.write(job('Later', '192.0.2.77'))).toBeNull()
  })

  test('a server unlisted since the vote path found it is read again inside the transaction and refused', async () => {
    const { rt, server, writer, job, ready, count } = await setup()
    await ready(writer)
    rt.db.run('UPDATE server SET hidden = 1 WHERE id = ?', [server.id])
    const hidden = writer.write(job('Alex', '198.51.100.20'))!
    expect(hidden).not.toBeNull()
    const e = (await hidden.catch((err) => err)) as ApiError
    expect([e.status, e.errorCode, e.field]).toEqual([404, 'NOT_FOUND', 'slug'])
    expect(count('SELECT count(*) AS n FROM vote')).toBe(0)

    // Listed again: the vote goes through, and the server read again is handed back to be remembered.
    rt.db.run('UPDATE server SET hidden = 0 WHERE id = ?', [server.id])
    const cast = await writer.write(job('Alex', '198.51.100.20'))!
    expect(cast.reread?.target.id).toBe(server.id)
    expect(cast.reread!.version).toBe((rt.db.query('SELECT n FROM listing_version').get() as { n: number }).n)
    expect(count('SELECT count(*) AS n FROM vote')).toBe(1)
    await writer.stop()
  })

  test('a batch whose commit cannot be made fails whole, writes nothing, and the next one goes through', async () => {
    const { rt, writer, job, ready, count } = await setup()
    await ready(writer)
    // Another connection keeps the write lock past the thread's busy timeout (5 s): the thread's
    // transaction cannot begin.
    rt.db.run('BEGIN IMMEDIATE')
    const blocked = await Promise.allSettled([job('Steve', '198.51.100.1'), job('Alex', '198.51.100.2')].map((j) => writer.write(j)!))
    rt.db.run('COMMIT')
    for (const b of blocked) {
      expect(b.status).toBe('rejected')
      const e = (b as PromiseRejectedResult).reason
      expect(e).not.toBeInstanceOf(ApiError)
      expect(e.code).toBe('SQLITE_BUSY')
    }
    expect(count('SELECT count(*) AS n FROM vote')).toBe(0)
    const again = await writer.write(job('Steve', '198.51.100.1'))!
    expect(again.recorded.vote.pseudo).toBe('Steve')
    expect(count('SELECT count(*) AS n FROM vote')).toBe(1)
    await writer.stop()
  }, 30_000)

  test('a thread that cannot open the database leaves every vote to the site\'s own thread', async () => {
    const log = memoryLogger()
    const writer = createVoteWriter({ path: '/dev/null/votelist.db', policy: { requireVerification: false }, log, onDue: () => {}, checkpointing: () => false, shareGate: () => {} })
    const job: VoteJob = { found: { target: { id: 'x', slug: 'x', name: 'x', edition: 'java' }, version: 1 }, pseudo: 'Steve', addresses: [null], now: 0, intervalMs: HOUR }
    expect(writer.write(job)).toBeNull()
    await until(() => log.lines.some((l) => l.includes('their writer\'s thread could not start')), 'the writer to give up')
    expect(writer.write(job)).toBeNull()
    await writer.stop()
  })

  test('the served site writes its votes on the thread, answers them as before, and stops cleanly', async () => {
    const configPath = writeLoadConfig(tempDir(), 'site.db', '[log]\nlevel = "debug"')
    const rt = sqliteSite(loadConfig(configPath), { log: memoryLogger() })
    const { server } = await seedServer(rt, { name: 'Served' })
    rt.db.close()
    const site = await startServer(configPath)
    const vote = async (i: number) => {
      const r = await fetch(`${site.url}/serveur/${server.slug}/voter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': `10.1.${i >> 8}.${i & 255}` },
        body: JSON.stringify({ pseudo: `served_${i}` }),
      })
      return { status: r.status, body: (await r.json()) as { vote: { id: string } } }
    }
    let next = 0
    const first = await vote(next++)
    expect(first.status).toBe(201)
    await until(() => site.log.some((l) => l.includes('votes are written on a thread of their own')), 'the site to start its vote writer')
    const answers = [first, ...(await Promise.all(Array.from({ length: 100 }, () => vote(next++))))]
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201))
    // Refused through the thread, the HTTP answer is the one the contract gives.
    const again = await fetch(`${site.url}/serveur/${server.slug}/voter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': '10.9.9.9' },
      body: JSON.stringify({ pseudo: 'served_3' }),
    })
    expect(again.status).toBe(429)
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('VOTE_TOO_SOON')

    expect(await stopServer(site)).toBe(0)
    // Neither an error nor a fall back to the site's own thread.
    expect(site.log.filter((l) => / ERROR /.test(l) || l.includes('own thread')).join('\n')).toBe('')
    const db = sqliteSite(loadConfig(configPath), { log: memoryLogger() }).db
    const ids = (db.query('SELECT id FROM vote ORDER BY id').all() as { id: string }[]).map((r) => r.id)
    expect(ids).toEqual(answers.map((a) => a.body.vote.id).sort())
    expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    db.close()
  })
})
