import { afterAll, afterEach, expect, test } from 'bun:test'
import { manualClock } from '../../src/clock.ts'
import { closeInterruptedDeliveries } from '../../src/deliveries/service.ts'
import { recoverInterruptedWork, registerSiteWork } from '../../src/site.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends } from '../backends.ts'
import { cleanupTemp, databaseInput, seedServer, siteAgain, type BackendRuntime } from '../helpers.ts'
import { startVotifierReceiver, type VotifierReceiver } from '../push/votifier-receiver.ts'
import { until } from '../until.ts'
import { attemptRows, deliveryRows, deliveryRuntime, freePort, jobCount, runNextDelivery, useDeliveryHandler } from './setup.ts'

const receivers: VotifierReceiver[] = []
afterEach(() => { for (const r of receivers.splice(0)) r.stop() })
afterAll(cleanupTemp)

const MIN = 60_000
const SCHEDULE = [0, 1, 5, 15, 30, 60, 120, 300].map((m) => m * MIN) // delays before attempts 1..8

function receiver(opts: Parameters<typeof startVotifierReceiver>[0] = {}) {
  const r = startVotifierReceiver({ tokens: { MyServerList: 'tok' }, ...opts })
  receivers.push(r)
  return r
}

const useVotifier = (rt: BackendRuntime, serverId: string, port: number) =>
  rt.store.channels.putVotifier({ serverId, host: '127.0.0.1', port, protocol: 'v2', publicKey: null, token: 'tok' }, rt.clock.now())

describeBackends('retry schedule', (backend) => {
  test('a dead listener: 8 attempts at 0, 1, 6, 21, 51, 111, 231 and 531 minutes, then gave_up', async () => {
    const { rt, server } = await deliveryRuntime(backend)
    await useVotifier(rt, server.id, freePort())
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    const t0 = rt.clock.now()
    await rt.queue.drain()
    for (let i = 1; i < 8; i++) {
      expect(await rt.queue.drain()).toBe(0) // nothing runs before its time
      await runNextDelivery(rt)
    }
    const rows = await attemptRows(rt)
    let at = t0
    const expected = SCHEDULE.map((delay, i) => {
      at += delay
      return { attempt: i + 1, startedAt: at }
    })
    expect(rows.map((r) => ({ attempt: r.attempt, startedAt: r.startedAt }))).toEqual(expected)
    expect(rows.slice(0, 7).every((r) => r.status === 'failed')).toBe(true)
    rows.slice(0, 7).forEach((r, i) => expect(r.nextAttemptAt).toBe(expected[i + 1].startedAt))
    expect(rows[7]).toMatchObject({ status: 'gave_up', nextAttemptAt: null })
    expect(rows.every((r) => r.error?.startsWith('connection refused by 127.0.0.1:'))).toBe(true)
    expect(expected[7].startedAt - t0).toBe(531 * MIN) // about 9 hours
    expect((await deliveryRows(rt))[0]).toMatchObject({ status: 'gave_up', attempts: 8, nextAttemptAt: null })
    expect(await jobCount(rt)).toBe(0)
  })

  test('restart in the middle (a new runtime on the same database) resumes the schedule', async () => {
    const { rt: first, server } = await deliveryRuntime(backend)
    const port = freePort()
    await useVotifier(first, server.id, port)
    await recordVote(first, server, 'Steve', ['203.0.113.7'])
    const t0 = first.clock.now()
    await first.queue.drain()
    await runNextDelivery(first)
    await runNextDelivery(first)
    await first.store.close()

    const second = await siteAgain(first)
    await recoverInterruptedWork(second)
    useDeliveryHandler(second)
    const r = startVotifierReceiver({ tokens: { MyServerList: 'tok' } })
    receivers.push(r)
    await useVotifier(second, server.id, r.port)
    expect(await second.queue.drain()).toBe(0)
    await runNextDelivery(second)
    expect(r.votes.map((v) => v.username)).toEqual(['Steve'])
    expect((await attemptRows(second)).map((a) => [a.attempt, a.status, a.startedAt - t0])).toEqual([
      [1, 'failed', 0], [2, 'failed', MIN], [3, 'failed', 6 * MIN], [4, 'succeeded', 21 * MIN],
    ])
    expect(await jobCount(second)).toBe(0)
  })

  test('a process killed during an attempt: the attempt is closed as interrupted and tried again (SQLite: at the next start; PostgreSQL: once its lease has ended)', async () => {
    const input = { network: { allow_private_targets: true }, deliveries: { votifier_read_timeout: '60s' }, jobs: { lease: '5m' } }
    const { rt: seedRt, server } = await deliveryRuntime(backend, input)
    const silent = receiver({ greeting: 'none' })
    await seedRt.store.channels.putVotifier({ serverId: server.id, host: '127.0.0.1', port: silent.port, protocol: 'v2', publicKey: null, token: 'tok' }, Date.now())
    await recordVote(seedRt, server, 'Steve', ['203.0.113.7'])
    await seedRt.store.close()

    const worker = Bun.spawn(['bun', `${import.meta.dir}/crash-worker.ts`, JSON.stringify({ input: { ...input, database: databaseInput(seedRt.config), votes: { captcha: 'off' } }, dir: '/' })], { stdout: 'pipe', stderr: 'inherit' })
    await until(() => silent.connections > 0, 'the worker to connect to the listener')
    expect(silent.connections).toBe(1)
    worker.kill('SIGKILL')
    await worker.exited

    const rt = await siteAgain(seedRt, { clock: manualClock(Date.now()) })
    expect(await attemptRows(rt)).toEqual([expect.objectContaining({ attempt: 1, status: 'pending' })])
    // What `votelist serve` does at start.
    await recoverInterruptedWork(rt)
    registerSiteWork(rt)
    if (backend === 'sqlite') {
      // The only process on the file: the attempt and the job's lease were the dead one's.
      expect((await attemptRows(rt))[0]).toMatchObject({ status: 'failed', nextAttemptAt: rt.clock.now() })
    } else {
      // Another instance may still be working on it: the job waits for its lease to end.
      expect((await attemptRows(rt))[0]).toMatchObject({ status: 'pending' })
      expect(await rt.queue.drain()).toBe(0)
      rt.clock.advance(5 * MIN)
    }
    const live = receiver()
    await useVotifier(rt, server.id, live.port)
    await rt.queue.drain()
    expect(live.votes.map((v) => v.username)).toEqual(['Steve'])
    const rows = await attemptRows(rt)
    expect(rows.map((a) => [a.attempt, a.status])).toEqual([[1, 'failed'], [2, 'succeeded']])
    expect(rows[0].error).toContain('interrupted: votelist stopped during this attempt')
    expect(rows[0].nextAttemptAt).toBe(rows[1].startedAt)
    expect((await deliveryRows(rt))[0]).toMatchObject({ status: 'succeeded', attempts: 2 })
    expect(await jobCount(rt)).toBe(0)
  })

  test('a test cut short by a stop is closed as failed at the next start (tests have no job to retry them)', async () => {
    const { rt, server } = await deliveryRuntime(backend)
    const event = { server: { id: server.id, slug: server.slug, name: server.name }, vote: { id: 't', pseudo: 'Steve', createdAt: 0 }, address: null, monthlyVotes: 0 }
    await rt.store.deliveries.insert({ id: 'test-1', serverId: server.id, voteId: null, channel: 'webhook', test: true, pseudo: 'Steve', payload: event, at: rt.clock.now() })
    await rt.store.deliveries.startAttempts([{ deliveryId: 'test-1', series: 1, at: rt.clock.now() }])
    await closeInterruptedDeliveries(rt)
    expect(await attemptRows(rt)).toEqual([expect.objectContaining({ status: 'failed', nextAttemptAt: null })])
    expect((await attemptRows(rt))[0].error).toContain('interrupted')
    expect((await deliveryRows(rt))[0]).toMatchObject({ test: 1, status: 'failed' })
  })
})

describeBackends('concurrency', (backend) => {
  test('a slow server uses its own slots only: another server\'s vote goes through meanwhile, and parked jobs wake when a slot frees', async () => {
    const { rt, server: slowServer } = await deliveryRuntime(backend, { deliveries: { per_target_concurrency: 1, concurrency: 2 } })
    const { server: other } = await seedServer(rt, { name: 'Other Server' })
    let letGo!: () => void
    const slow = receiver({ holdAnswers: new Promise<void>((r) => { letGo = r }) })
    const fast = receiver()
    await useVotifier(rt, slowServer.id, slow.port)
    await useVotifier(rt, other.id, fast.port)
    for (const [i, p] of ['Alpha', 'Bravo', 'Charlie'].entries()) await recordVote(rt, slowServer, p, [`203.0.113.${i + 1}`])
    await recordVote(rt, other, 'Delta', ['198.51.100.1'])
    // The real wiring: the scheduler's drain task, woken by every enqueue and every woken job.
    registerSiteWork(rt)
    rt.scheduler.start()
    try {
      // Delta goes through while the slow listener holds its one slot with Alpha's vote
      // unanswered (the two arrive in either order).
      await Promise.all([fast.waitVotes(1), slow.waitVotes(1)])
      expect(slow.votes.length).toBe(1)
      expect(slow.connections).toBe(1)
      letGo()
      await slow.waitVotes(3)
      await until(async () => (await deliveryRows(rt)).every((d) => d.status === 'succeeded'), 'every delivery to succeed')
    } finally {
      await rt.scheduler.stop()
    }
    expect(slow.maxOpen).toBe(1)
    expect(slow.votes.map((v) => v.username).sort()).toEqual(['Alpha', 'Bravo', 'Charlie'])
    // The clock never moved: the parked jobs were woken by freed slots, not by their timeout.
    expect((await deliveryRows(rt)).map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded'])
    expect((await attemptRows(rt)).every((a) => a.attempt === 1)).toBe(true)
    expect(await jobCount(rt)).toBe(0)
  })

  test('a slot that frees while a parked job\'s run time is being stored still wakes it', async () => {
    const { rt, server } = await deliveryRuntime(backend, { deliveries: { per_target_concurrency: 1 } })
    let letGo!: () => void
    const slow = receiver({ holdAnswers: new Promise<void>((r) => { letGo = r }) })
    await useVotifier(rt, server.id, slow.port)
    for (const [i, p] of ['Alpha', 'Bravo'].entries()) await recordVote(rt, server, p, [`203.0.113.${i + 1}`])
    // The vote that finds the one slot taken has its new run time stored only after the other's
    // attempt has ended and freed the slot, and after the gate's wake of that slot has run.
    const wakes: Promise<boolean>[] = []
    const hasten = rt.queue.hasten
    rt.queue.hasten = (id) => { const p = hasten(id); wakes.push(p); return p }
    const reschedule = rt.store.jobs.reschedule
    let raced = false
    rt.store.jobs.reschedule = async (job, runAt, error) => {
      if (!raced && error?.startsWith('waiting for a free slot')) {
        raced = true
        letGo()
        await until(() => rt.deliveryGate.inFlight() === 0, 'the other attempt to end')
        await new Promise((r) => setImmediate(r))
        await Promise.all(wakes)
      }
      return reschedule(job, runAt, error)
    }
    registerSiteWork(rt)
    rt.scheduler.start()
    try {
      // The clock never moves: only a wake from the freed slot runs the parked job.
      await until(() => slow.votes.length >= 2, 'the parked vote at the listener')
    } finally {
      await rt.scheduler.stop()
    }
    expect(raced).toBe(true)
    expect(slow.votes.map((v) => v.username).sort()).toEqual(['Alpha', 'Bravo'])
  })
})
