import { Database } from 'bun:sqlite'
import { SQL } from 'bun'
import { afterAll, afterEach, expect, test } from 'bun:test'
import { manualClock } from '../../src/clock.ts'
import { recoverInterruptedWork, registerSiteWork } from '../../src/site.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends } from '../backends.ts'
import { cleanupTemp, databaseInput, seedServer, siteAgain, type BackendRuntime } from '../helpers.ts'
import { startVotifierReceiver, type VotifierReceiver } from '../push/votifier-receiver.ts'
import { until } from '../until.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.ts'
import { attemptRows, deliveryRows, deliveryRuntime, jobCount } from './setup.ts'

// The attempts of a moment share one transaction (src/deliveries/ledger.ts): these tests hold the
// guarantees that batching must keep, with many attempts in flight at once.

const SECRET = 'whsec_' + 'c'.repeat(43)
const MIN = 60_000
const stops: (() => void)[] = []
afterEach(() => { for (const stop of stops.splice(0)) stop() })
afterAll(cleanupTemp)

function votifier(opts: Parameters<typeof startVotifierReceiver>[0] = {}): VotifierReceiver {
  const r = startVotifierReceiver({ tokens: { MyServerList: 'tok' }, ...opts })
  stops.push(r.stop)
  return r
}

function webhook(): WebhookReceiver {
  const r = startWebhookReceiver(SECRET)
  stops.push(r.stop)
  return r
}

async function useReceivers(rt: BackendRuntime, serverId: string, v: VotifierReceiver, w: WebhookReceiver) {
  await rt.store.channels.putVotifier({ serverId, host: '127.0.0.1', port: v.port, protocol: 'v2', publicKey: null, token: 'tok' }, rt.clock.now())
  await rt.store.channels.putWebhook(serverId, w.url(), SECRET, rt.clock.now())
}

// Another connection holds the database's write lock (SQLite) or the attempts table's (PostgreSQL)
// until released: what the site writes there meanwhile waits, uncommitted. `waiting`: whether a
// write waits for it (PostgreSQL says so; SQLite's writer waits in its own process, unseen).
async function holdWrites(rt: BackendRuntime): Promise<{ waiting(): Promise<boolean>; release(): Promise<void> }> {
  if (rt.backend === 'sqlite') {
    const db = new Database(rt.config.database.path)
    db.run('PRAGMA busy_timeout = 5000')
    db.run('BEGIN IMMEDIATE')
    return { waiting: async () => true, release: async () => { db.run('ROLLBACK'); db.close() } }
  }
  const sql = new SQL({ url: rt.config.database.url, max: 1 })
  let release!: () => void
  let taken!: () => void
  const locked = new Promise<void>((r) => { taken = r })
  const held = sql.begin(async (tx) => {
    await tx.unsafe('LOCK TABLE delivery_attempt IN SHARE ROW EXCLUSIVE MODE')
    taken()
    await new Promise<void>((r) => { release = r })
  })
  await locked
  const watcher = new SQL({ url: rt.config.database.url, max: 1 })
  return {
    waiting: async () => (await watcher.unsafe(`SELECT 1 FROM pg_locks WHERE NOT granted AND relation = 'delivery_attempt'::regclass`)).length > 0,
    release: async () => { release(); await held; await Promise.all([sql.close(), watcher.close()]) },
  }
}

describeBackends('delivery state written in groups', (backend) => {
  test('many attempts at once, successes and failures mixed: each is recorded with its delivery\'s status, and each job settled as its outcome says', async () => {
    const { rt, server } = await deliveryRuntime(backend, { deliveries: { per_target_concurrency: 32 } })
    const { server: other } = await seedServer(rt, { name: 'Other Server' })
    const [v, w] = [votifier(), webhook()]
    await useReceivers(rt, server.id, v, w)
    await useReceivers(rt, other.id, v, w)
    // Every third webhook request is refused: those deliveries fail and are due again in a minute.
    w.reply(...Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? 500 : 204)))
    const votes = 24
    for (let i = 0; i < votes; i++) await recordVote(rt, i % 2 ? other : server, `Player_${i}`, [`203.0.113.${i + 1}`])
    const t0 = rt.clock.now()
    expect(await rt.queue.drain()).toBe(2 * votes)

    expect(v.votes.length).toBe(votes)
    expect(w.received.length).toBe(votes)
    const attempts = await attemptRows(rt)
    const deliveries = await deliveryRows(rt)
    expect(attempts.length).toBe(2 * votes)
    expect(new Set(attempts.map((a) => a.deliveryId)).size).toBe(2 * votes)
    const failed = deliveries.filter((d) => d.status === 'failed')
    expect(failed.length).toBe(8)
    expect(failed.every((d) => d.channel === 'webhook' && d.nextAttemptAt === t0 + MIN)).toBe(true)
    expect(deliveries.filter((d) => d.status === 'succeeded').length).toBe(2 * votes - 8)
    expect(deliveries.every((d) => d.attempts === 1)).toBe(true)
    for (const a of attempts) {
      const d = deliveries.find((x) => x.id === a.deliveryId)!
      expect(a).toMatchObject({ attempt: 1, status: d.status, nextAttemptAt: d.nextAttemptAt, startedAt: t0 })
      expect(a.durationMs).not.toBeNull()
      expect(a.httpStatus).toBe(d.channel === 'webhook' ? (d.status === 'failed' ? 500 : 204) : null)
    }
    // The jobs of the failed deliveries wait for their retry, unleased; the others are gone.
    const jobs = await rt.rows<{ payload: string; runAt: number; leaseUntil: number | null; lastError: string | null }>(
      `SELECT payload, run_at AS "runAt", lease_until AS "leaseUntil", last_error AS "lastError" FROM job WHERE kind = 'delivery'`)
    expect(jobs.map((j) => JSON.parse(j.payload).deliveryId).sort()).toEqual(failed.map((d) => d.id).sort())
    expect(jobs.every((j) => j.runAt === t0 + MIN && j.leaseUntil === null && j.lastError?.includes('500'))).toBe(true)

    // The retries a minute later go through, each recorded as the second attempt.
    rt.clock.advance(MIN)
    expect(await rt.queue.drain()).toBe(8)
    expect((await deliveryRows(rt)).every((d) => d.status === 'succeeded')).toBe(true)
    expect((await attemptRows(rt)).filter((a) => a.attempt === 2).map((a) => a.deliveryId).sort()).toEqual(failed.map((d) => d.id).sort())
    expect(await jobCount(rt)).toBe(0)
  })

  test('a write that fails does not take the others of its group with it: they are recorded, it is retried later', async () => {
    const { rt, server } = await deliveryRuntime(backend, { deliveries: { per_target_concurrency: 32 } })
    const [v, w] = [votifier(), webhook()]
    await useReceivers(rt, server.id, v, w)
    for (let i = 0; i < 6; i++) await recordVote(rt, server, `Player_${i}`, [`203.0.113.${i + 1}`])
    // The database refuses the attempt row of one delivery: its start fails, in the group of the
    // twelve starts claimed together.
    const [broken] = await deliveryRows(rt)
    if (backend === 'sqlite') {
      await rt.rows(`CREATE TRIGGER refuse_attempt BEFORE INSERT ON delivery_attempt WHEN NEW.delivery_id = '${broken.id}'
        BEGIN SELECT RAISE(ABORT, 'attempt refused by the test'); END`)
    } else {
      await rt.rows(`CREATE FUNCTION refuse_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.delivery_id = '${broken.id}' THEN RAISE EXCEPTION 'attempt refused by the test'; END IF; RETURN NEW; END $$`)
      await rt.rows('CREATE TRIGGER refuse_attempt BEFORE INSERT ON delivery_attempt FOR EACH ROW EXECUTE FUNCTION refuse_attempt()')
    }
    expect(await rt.queue.drain()).toBe(12)
    expect(v.votes.length + w.received.length).toBe(11)
    expect((await attemptRows(rt)).map((a) => a.deliveryId)).not.toContain(broken.id)
    expect((await deliveryRows(rt)).filter((d) => d.status === 'succeeded').length).toBe(11)
    // Its job is due again later (the queue's backoff), with the database's refusal as its error.
    const job = (await rt.row<{ runAt: number; leaseUntil: number | null; lastError: string }>(
      `SELECT run_at AS "runAt", lease_until AS "leaseUntil", last_error AS "lastError" FROM job WHERE kind = 'delivery'`))!
    expect(job).toMatchObject({ leaseUntil: null, lastError: expect.stringContaining('attempt refused by the test') })
    expect(job.runAt).toBeGreaterThan(rt.clock.now())

    await rt.rows(backend === 'sqlite' ? 'DROP TRIGGER refuse_attempt' : 'DROP TRIGGER refuse_attempt ON delivery_attempt')
    rt.clock.set(job.runAt)
    expect(await rt.queue.drain()).toBe(1)
    expect(v.votes.length + w.received.length).toBe(12)
    expect((await deliveryRows(rt)).every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true)
    expect(await jobCount(rt)).toBe(0)
  })

  test('killed after sending, before the group that records the outcomes committed: every delivery is done with its attempt recorded, or due again, and goes out again', async () => {
    const input = { network: { allow_private_targets: true }, deliveries: { per_target_concurrency: 32 }, jobs: { lease: '5m' } }
    const { rt: seedRt, server } = await deliveryRuntime(backend, input)
    let answer!: () => void
    const answers = new Promise<void>((r) => { answer = r })
    const v = votifier({ holdAnswers: answers })
    const w = webhook()
    await useReceivers(seedRt, server.id, v, w)
    const votes = 6
    w.reply(...Array.from({ length: votes }, () => ({ status: 204, hold: answers })))
    for (let i = 0; i < votes; i++) await recordVote(seedRt, server, `Player_${i}`, [`203.0.113.${i + 1}`])
    await seedRt.store.close()

    const worker = Bun.spawn(['bun', `${import.meta.dir}/crash-worker.ts`, JSON.stringify({ input: { ...input, database: databaseInput(seedRt.config), votes: { captcha: 'off' } }, dir: '/' })], { stdout: 'pipe', stderr: 'inherit' })
    try {
      // Every attempt has begun and reached its receiver, whose answer waits.
      await v.waitVotes(votes)
      await w.waitFor(votes)
      // The outcomes cannot be written any more: the answers come, the group waits on the lock.
      const lock = await holdWrites(seedRt)
      answer()
      await until(() => v.open < votes, 'the worker to have read a Votifier answer')
      await until(() => lock.waiting(), 'the worker\'s outcomes to wait for the lock')
      worker.kill('SIGKILL')
      await worker.exited
      await lock.release()
    } finally {
      worker.kill('SIGKILL')
    }

    const rt = await siteAgain(seedRt, { clock: manualClock(Date.now()) })
    const deliveries = await deliveryRows(rt)
    const attempts = await attemptRows(rt)
    const waiting = new Set((await rt.rows<{ payload: string }>(`SELECT payload FROM job WHERE kind = 'delivery'`)).map((j) => JSON.parse(j.payload).deliveryId))
    expect(deliveries.length).toBe(2 * votes)
    for (const d of deliveries) {
      const done = d.status === 'succeeded' && attempts.some((a) => a.deliveryId === d.id && a.status === 'succeeded')
      expect(done || waiting.has(d.id)).toBe(true)
    }
    // Sent, answered, and not recorded: the crash came between the attempts and their group.
    const unrecorded = attempts.filter((a) => a.status === 'pending')
    expect(unrecorded.length).toBeGreaterThan(0)
    expect(unrecorded.every((a) => waiting.has(a.deliveryId))).toBe(true)

    // What `votelist serve` does at start; on PostgreSQL the dead process's leases end first.
    await recoverInterruptedWork(rt)
    registerSiteWork(rt)
    if (backend === 'postgres') rt.clock.advance(5 * MIN)
    await rt.queue.drain()
    const after = await deliveryRows(rt)
    expect(after.every((d) => d.status === 'succeeded')).toBe(true)
    const rows = await attemptRows(rt)
    for (const a of unrecorded) {
      expect(rows.filter((r) => r.deliveryId === a.deliveryId).map((r) => [r.attempt, r.status])).toEqual([[1, 'failed'], [2, 'succeeded']])
    }
    expect(rows.filter((r) => r.status === 'failed').every((r) => r.error?.startsWith('interrupted:'))).toBe(true)
    // Each vote reached each receiver, the interrupted ones twice (at least once, as promised).
    const names = Array.from({ length: votes }, (_, i) => `Player_${i}`)
    expect([...new Set(v.votes.map((x) => x.username))].sort()).toEqual(names)
    expect([...new Set(w.received.map((x) => x.json.vote.pseudo))].sort()).toEqual(names)
    expect(v.votes.length + w.received.length).toBe(2 * votes + unrecorded.length)
    expect(await jobCount(rt)).toBe(0)
  })
})
