import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { use } from '../../src/db/store.ts'
import { closeInterruptedDeliveries } from '../../src/deliveries/service.ts'
import { DELIVERY_JOB, INTERRUPTED } from '../../src/deliveries/repo.ts'
import type { Job } from '../../src/jobs/repo.ts'
import { recordVote } from '../../src/votes/service.ts'
import { backends, closeTestSites, describeBackends, type Backend } from '../backends.ts'
import { holdNextWrite, lockWaits } from '../held-write.ts'
import { cleanupTemp, siteAgain, type BackendRuntime } from '../helpers.ts'
import { until } from '../until.ts'
import { attemptRows, deliveryRows, deliveryRuntime } from './setup.ts'

// An attempt whose runner paused for longer than its job's lease: the job was claimed again (by
// another instance on PostgreSQL, by the same process on SQLite) and its delivery attempted
// again, the first attempt closed as interrupted when the second began. The first attempt's
// outcome, when it finally comes, must not overwrite what the later attempt recorded.

afterAll(cleanupTemp)

const LEASE = 120_000

async function oneDelivery(backend: Backend) {
  const { rt, server } = await deliveryRuntime(backend)
  await rt.store.channels.putWebhook(server.id, 'http://127.0.0.1:9/hook', 'whsec_' + 's'.repeat(43), rt.clock.now())
  await recordVote(rt, server, 'Steve', ['203.0.113.7'])
  const [d] = await deliveryRows(rt)
  // Another instance on PostgreSQL; on SQLite the one process is the only runner.
  const other = backend === 'postgres' ? await siteAgain(rt) : rt
  return { rt, other, deliveryId: d.id }
}

// What the queue does: claim the due delivery job, then begin its attempt (both through the ledger).
async function claimAndBegin(rt: BackendRuntime, deliveryId: string) {
  const now = rt.clock.now()
  const [job] = await rt.attemptLedger.claim({ kinds: [DELIVERY_JOB], now, leaseUntil: now + LEASE, limit: 1 })
  expect(job).toMatchObject({ kind: DELIVERY_JOB, payload: { deliveryId } })
  const started = await rt.attemptLedger.begin({ deliveryId, series: 1, at: now })
  return { job, started: started! }
}

const finish = (rt: BackendRuntime, deliveryId: string, attemptId: number, job: Job, outcome: 'succeeded' | 'failed') => {
  const now = rt.clock.now()
  const failed = outcome === 'failed'
  const nextAttemptAt = failed ? now + 60_000 : null
  const error = failed ? 'HTTP 500 from the webhook' : null
  return rt.attemptLedger.finish(
    { attemptId, deliveryId, status: outcome, error, httpStatus: failed ? 500 : 200, durationMs: 5, nextAttemptAt, rateLimited: false, at: now },
    { job, retryAt: nextAttemptAt, error },
  )
}

const history = async (rt: BackendRuntime) => (await attemptRows(rt)).map((a) => ({ attempt: a.attempt, status: a.status, error: a.error, httpStatus: a.httpStatus }))
const jobRows = (rt: BackendRuntime) => rt.rows('SELECT id, run_at AS "runAt", lease_until AS "leaseUntil", last_error AS "lastError" FROM job')

describeBackends('the outcome of an attempt that outlived its job\'s lease', (backend) => {
  test('coming after the next attempt succeeded: the delivery stays succeeded, the first attempt interrupted', async () => {
    const { rt, other, deliveryId } = await oneDelivery(backend)
    const first = await claimAndBegin(rt, deliveryId)
    rt.clock.advance(LEASE + 1000)
    const second = await claimAndBegin(other, deliveryId)
    expect(second.started.attempt).toBe(2)
    await finish(other, deliveryId, second.started.id, second.job, 'succeeded')
    rt.clock.advance(1000)
    await finish(rt, deliveryId, first.started.id, first.job, 'failed')

    expect(await deliveryRows(rt)).toEqual([{ id: deliveryId, channel: 'webhook', test: 0, status: 'succeeded', attempts: 2, nextAttemptAt: null }])
    expect(await history(rt)).toEqual([
      { attempt: 1, status: 'failed', error: INTERRUPTED, httpStatus: null },
      { attempt: 2, status: 'succeeded', error: null, httpStatus: 200 },
    ])
    expect(await jobRows(rt)).toEqual([])
  })

  test('coming while the next attempt is in flight: nothing written, the job left to the lease that holds it', async () => {
    const { rt, other, deliveryId } = await oneDelivery(backend)
    const first = await claimAndBegin(rt, deliveryId)
    rt.clock.advance(LEASE + 1000)
    const second = await claimAndBegin(other, deliveryId)
    const before = { deliveries: await deliveryRows(rt), jobs: await jobRows(rt) }
    expect(before.jobs).toEqual([{ id: second.job.id, runAt: expect.any(Number), leaseUntil: second.job.leaseUntil, lastError: null }])
    rt.clock.advance(1000)
    await finish(rt, deliveryId, first.started.id, first.job, 'failed')

    expect({ deliveries: await deliveryRows(rt), jobs: await jobRows(rt) }).toEqual(before)
    expect(await history(rt)).toEqual([
      { attempt: 1, status: 'failed', error: INTERRUPTED, httpStatus: null },
      { attempt: 2, status: 'pending', error: null, httpStatus: null },
    ])
    await finish(other, deliveryId, second.started.id, second.job, 'succeeded')
    expect((await deliveryRows(rt))[0]).toMatchObject({ status: 'succeeded', attempts: 2, nextAttemptAt: null })
    expect(await jobRows(rt)).toEqual([])
  })

  // An instance that starts closes the attempts pending for longer than a lease as interrupted
  // (their outcome unknown), and leaves their jobs to be claimed again. Its outcome coming before
  // anyone has is still the delivery's latest word: recorded, with its job settled.
  test('closed as interrupted by a start, no attempt begun since: its outcome is recorded and its job settled', async () => {
    const { rt, deliveryId } = await oneDelivery(backend)
    const first = await claimAndBegin(rt, deliveryId)
    rt.clock.advance(LEASE + 1000)
    await closeInterruptedDeliveries(rt, rt.clock.now() - LEASE)
    expect((await history(rt))[0]).toMatchObject({ attempt: 1, status: 'failed', error: INTERRUPTED })
    await finish(rt, deliveryId, first.started.id, first.job, 'succeeded')

    expect(await deliveryRows(rt)).toEqual([{ id: deliveryId, channel: 'webhook', test: 0, status: 'succeeded', attempts: 1, nextAttemptAt: null }])
    expect(await history(rt)).toEqual([{ attempt: 1, status: 'succeeded', error: null, httpStatus: 200 }])
    expect(await jobRows(rt)).toEqual([])
  })
})

// On PostgreSQL the late outcome may be written while the other instance's start is: it waits for
// that start's transaction, then finds the attempt it ends no longer the latest.
describe.if(backends.includes('postgres'))('the late outcome of an attempt, written while another instance begins the next [postgres]', () => {
  afterEach(closeTestSites)

  test('it waits for that start to commit, then writes nothing', async () => {
    const { rt, other, deliveryId } = await oneDelivery('postgres')
    const first = await claimAndBegin(rt, deliveryId)
    rt.clock.advance(LEASE + 1000)
    const now = rt.clock.now()
    await other.attemptLedger.claim({ kinds: [DELIVERY_JOB], now, leaseUntil: now + LEASE, limit: 1 })
    const held = holdNextWrite(other)
    const begun = held.store.write((tx) => use(tx.deliveries.startAttempts([{ deliveryId, series: 1, at: now }])))
    await until(() => held.written(), 'the other instance\'s attempt to be written')
    const late = finish(rt, deliveryId, first.started.id, first.job, 'failed')
    await until(async () => (await lockWaits(rt)) >= 1, 'the late outcome to wait for the other instance\'s transaction')
    held.release()
    expect((await begun)[0]).toMatchObject({ attempt: 2 })
    await late

    expect((await deliveryRows(rt))[0]).toMatchObject({ status: 'pending', attempts: 2 })
    expect(await history(rt)).toEqual([
      { attempt: 1, status: 'failed', error: INTERRUPTED, httpStatus: null },
      { attempt: 2, status: 'pending', error: null, httpStatus: null },
    ])
  })
})
