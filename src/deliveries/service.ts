import type { AuditRepo } from '../audit/repo.ts'
import { auditOnServer, type ServerActor } from '../audit/service.ts'
import { CHANNEL_LABELS } from '../channels/schema.ts'
import { notFound, refusal } from '../http/errors.ts'
import { use, type StoreWrites, type TxScript } from '../db/store.ts'
import { newId } from '../ids.ts'
import { DeliveryFailure, seconds } from '../net/guard.ts'
import { monthOf } from '../servers/month.ts'
import type { Server } from '../servers/repo.ts'
import { attempt, type DeliveriesTx, type DeliveryDeps, type DeliveryJob } from './attempt.ts'
import { channelSettings, channelTarget } from './channel.ts'
import { DELIVERY_JOB, type VoteEvent } from './repo.ts'
import type { TestResult } from './schema.ts'

// One delivery per channel the server has configured, recorded in the caller's transaction (the
// outbox: an acknowledged vote never forgets its notifications). A vote's deliveries each get a
// job; a test's are sent at once by the Test button, never queued. Returns the deliveries' ids,
// in the channels' order.
export function* queueDeliveries(tx: DeliveriesTx, event: VoteEvent, at: number, opts: { test?: boolean } = {}): TxScript<string[]> {
  const test = opts.test ?? false
  const ids: string[] = []
  for (const channel of yield* use(tx.channels.configured(event.server.id))) {
    const id = newId()
    // A test has no vote row: its trial vote is named by the delivery itself.
    const payload = test ? { ...event, vote: { ...event.vote, id } } : event
    yield* use(tx.deliveries.insert({ id, serverId: event.server.id, voteId: test ? null : event.vote.id, channel, test, pseudo: event.vote.pseudo, payload, at }))
    if (!test) yield* use(tx.jobs.enqueue({ kind: DELIVERY_JOB, payload: { deliveryId: id } satisfies DeliveryJob }, at))
    ids.push(id)
  }
  return ids
}

// A site's store, whose transactions also write the audit log: an administrator's test or redeliver
// on another account's server is audited (a Votifier listener cannot tell a test from a vote: both
// may reward a player).
type AuditedTx = DeliveriesTx & { audit: AuditRepo }
export type AuditedDeliveryDeps = DeliveryDeps & { store: StoreWrites<AuditedTx> }

// The Test button: a trial vote on every configured channel at once, sent now, outside the queue;
// recorded in the Deliveries tab as a test; never retried and never counted as a vote.
export async function sendTestVotes(deps: AuditedDeliveryDeps, server: Server, pseudo: string, address: string | null, by?: ServerActor): Promise<TestResult[]> {
  const now = deps.clock.now()
  const event: VoteEvent = {
    server: { id: server.id, slug: server.slug, name: server.name }, vote: { id: '', pseudo, createdAt: now }, address,
    monthlyVotes: await deps.store.ranking.monthVotes(server.id, monthOf(now)),
  }
  const ids = await deps.store.write(function* (tx: AuditedTx) {
    const queued = yield* queueDeliveries(tx, event, now, { test: true })
    if (queued.length) yield* auditOnServer(tx, now, by, 'server.test_vote', { pseudo })
    return queued
  })
  if (!ids.length) throw refusal('NO_CHANNEL', 'nothing to test: configure a Votifier target, a webhook or a Discord webhook first')
  return Promise.all(ids.map(async (id): Promise<TestResult> => {
    const d = (await deps.store.deliveries.get(id))!
    const channel = channelTarget(deps, d, await channelSettings(deps.store.channels, d))
    // A target whose receiver asked for a pause (Discord's 429) gets no test either until it ends:
    // each request meanwhile is refused again, and counts against the site with Discord.
    const heldUntil = channel && deps.deliveryGate.heldUntil(channel.target, now)
    const entered = !channel || (!heldUntil && deps.deliveryGate.enter(channel.target))
    const refused = (text: string) => () => Promise.reject(new DeliveryFailure(text))
    const send = heldUntil
      ? refused(`rate limited: ${d.channel === 'discord' ? 'Discord' : 'the receiver'} asked to wait before the next message to this ${d.channel === 'discord' ? 'webhook' : 'target'}; a test is not sent again: press Test after ${seconds(heldUntil - now)}`)
      : refused('too many deliveries to this target are in progress right now; try again in a moment')
    try {
      const r = await attempt(deps, d, entered ? channel : { target: channel.target, send })
      if (!r) return { channel: d.channel, status: 'failed', error: 'the server was deleted during the test', durationMs: 0 }
      return { channel: d.channel, status: r.status === 'succeeded' ? 'succeeded' : 'failed', error: r.error, durationMs: r.durationMs }
    } finally {
      if (channel && entered) deps.deliveryGate.leave(channel.target)
    }
  }))
}

// Sends a delivery again by hand: a new series of attempts (the first at once, then the whole
// retry schedule), whatever the delivery's status. The attempt numbers go on from the last one.
export function redeliver(deps: AuditedDeliveryDeps, server: Server, deliveryId: string, by?: ServerActor) {
  return deps.store.write(function* (tx: AuditedTx) {
    const d = yield* use(tx.deliveries.get(deliveryId))
    if (!d || d.serverId !== server.id) throw notFound(`no delivery with the id "${deliveryId}" for this server`)
    if (d.test) throw refusal('TEST_NOT_RESENT', 'a test is never sent again: press Test for a new one')
    if (yield* use(tx.deliveries.attemptInProgress(d.id))) throw refusal('ATTEMPT_IN_PROGRESS', 'an attempt of this delivery is in progress; wait for its outcome')
    // A series whose first attempt has not begun (a redeliver pressed twice, or a delivery still
    // waiting for its first attempt) already has its job: a second job of the same series would
    // send the vote once more alongside it.
    if (d.status === 'pending' && d.attempts < d.seriesStart) throw refusal('ALREADY_QUEUED', 'this delivery is already queued to be sent again; wait for its attempt')
    if (!(yield* use(tx.channels.configured(server.id))).includes(d.channel)) {
      throw refusal('CHANNEL_REMOVED', `no ${CHANNEL_LABELS[d.channel]} is configured any more: set it up again first`)
    }
    const now = deps.clock.now()
    const series = d.attempts + 1
    // Refused by the write itself when another redeliver (another instance) began this series.
    if (!(yield* use(tx.deliveries.startSeries(d.id, series, now)))) {
      throw refusal('ATTEMPT_IN_PROGRESS', 'an attempt of this delivery is in progress, or it is already queued to be sent again; wait for its outcome')
    }
    yield* use(tx.jobs.enqueue({ kind: DELIVERY_JOB, payload: { deliveryId: d.id, series } satisfies DeliveryJob }, now))
    yield* auditOnServer(tx, now, by, 'server.redeliver', { channel: d.channel, pseudo: d.pseudo })
    return { id: d.id, channel: d.channel, status: 'pending' as const, nextAttempt: series, nextAttemptAt: now }
  })
}

// The start-up step of a site, before any job runs: the attempts still pending that started before
// `startedBefore` were cut short by a process that is gone (every one, when this process is the
// database's only user). A queued delivery runs again through its job; a test just failed.
export async function closeInterruptedDeliveries(deps: Pick<DeliveryDeps, 'store' | 'clock' | 'log'>, startedBefore = Number.MAX_SAFE_INTEGER): Promise<void> {
  const interrupted = await deps.store.deliveries.closeInterrupted(deps.clock.now(), startedBefore)
  if (interrupted) deps.log.info('closed delivery attempts interrupted by the previous stop', { attempts: interrupted })
}
