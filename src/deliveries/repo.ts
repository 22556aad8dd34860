import type { Database } from 'bun:sqlite'
import type { Channel } from '../channels/repo.ts'

// What every attempt of a vote's delivery sends, frozen when the vote is recorded: channel
// encoders (Votifier payload, webhook body) are built from it.
export interface VoteEvent {
  server: { id: string; slug: string; name: string }
  vote: { id: string; pseudo: string; createdAt: number }
  address: string | null
  monthlyVotes: number
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'gave_up'

export interface Delivery {
  id: string
  serverId: string
  voteId: string | null
  channel: Channel
  test: boolean
  pseudo: string
  payload: VoteEvent
  status: DeliveryStatus
  attempts: number
  seriesStart: number // the first attempt of the current series (1, or where a redeliver began)
  nextAttemptAt: number | null
  createdAt: number
}

// One row of the Deliveries tab: an attempt with its delivery's fields.
export interface AttemptRow {
  id: number
  deliveryId: string
  voteId: string | null
  pseudo: string
  channel: Channel
  test: boolean
  attempt: number
  seriesAttempt: number // the attempt's place in its series (a redeliver starts a new one at 1)
  status: DeliveryStatus
  error: string | null
  httpStatus: number | null
  durationMs: number | null
  startedAt: number
  nextAttemptAt: number | null
}

// Filters of the Deliveries tab; absent = any.
export interface AttemptFilter {
  channel?: Channel
  status?: DeliveryStatus
}

export interface AttemptEnd {
  status: Exclude<DeliveryStatus, 'pending'>
  error: string | null
  httpStatus: number | null
  durationMs: number
  nextAttemptAt: number | null
}

const INTERRUPTED = 'interrupted: votelist stopped during this attempt, so its outcome is unknown (a queued delivery is tried again)'

export function deliveriesRepo(db: Database) {
  const insert = db.prepare(`INSERT INTO delivery (id, server_id, vote_id, channel, test, pseudo, payload, status, next_attempt_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`)
  const get = db.prepare(`SELECT id, server_id AS serverId, vote_id AS voteId, channel, test, pseudo, payload, status, attempts,
    series_start AS seriesStart, next_attempt_at AS nextAttemptAt, created_at AS createdAt FROM delivery WHERE id = ?`)
  const closeInterrupted = db.prepare(`UPDATE delivery_attempt SET status = 'failed', error = ?2, next_attempt_at = ?3
    WHERE delivery_id = ?1 AND status = 'pending'`)
  const closeAllInterrupted = db.prepare(`UPDATE delivery_attempt SET status = 'failed', error = ?1,
      next_attempt_at = CASE WHEN (SELECT test FROM delivery WHERE id = delivery_id) = 1 THEN NULL ELSE ?2 END
    WHERE status = 'pending'`)
  const failInterruptedTests = db.prepare(`UPDATE delivery SET status = 'failed', updated_at = ?1 WHERE test = 1 AND status = 'pending'`)
  const hasPending = db.prepare(`SELECT 1 FROM delivery_attempt WHERE delivery_id = ? AND status = 'pending' LIMIT 1`)
  const insertAttempt = db.prepare(`INSERT INTO delivery_attempt (delivery_id, server_id, attempt, series_start, status, started_at)
    VALUES (?, ?, ?, ?, 'pending', ?)`)
  const countAttempt = db.prepare('UPDATE delivery SET attempts = ?2, updated_at = ?3 WHERE id = ?1')
  const endAttempt = db.prepare(`UPDATE delivery_attempt SET status = $status, error = $error, http_status = $httpStatus,
    duration_ms = $durationMs, next_attempt_at = $nextAttemptAt WHERE id = $id`)
  const setStatus = db.prepare('UPDATE delivery SET status = ?2, next_attempt_at = ?3, updated_at = ?4 WHERE id = ?1')
  const newSeries = db.prepare(`UPDATE delivery SET status = 'pending', series_start = ?2, next_attempt_at = ?3, updated_at = ?3 WHERE id = ?1`)
  const list = db.prepare(`SELECT a.id, a.delivery_id AS deliveryId, d.vote_id AS voteId, d.pseudo, d.channel, d.test, a.attempt,
      a.attempt - a.series_start + 1 AS seriesAttempt, a.status, a.error, a.http_status AS httpStatus, a.duration_ms AS durationMs,
      a.started_at AS startedAt, a.next_attempt_at AS nextAttemptAt
    FROM delivery_attempt a JOIN delivery d ON d.id = a.delivery_id
    WHERE a.server_id = $serverId AND a.id < $before AND ($channel IS NULL OR d.channel = $channel) AND ($status IS NULL OR a.status = $status)
    ORDER BY a.id DESC LIMIT $limit`)
  return {
    get(id: string): Delivery | null {
      const row = get.get(id) as (Omit<Delivery, 'payload' | 'test'> & { payload: string; test: number }) | null
      return row && { ...row, test: row.test === 1, payload: JSON.parse(row.payload) as VoteEvent }
    },
    // Starts the attempt after `d.attempts` (call inside a transaction, with `d` read in it or
    // with no await since): an attempt left 'pending' by a process that died is closed first, as
    // interrupted. Returns the attempt row's id and number.
    startAttempt(d: Pick<Delivery, 'id' | 'serverId' | 'attempts' | 'seriesStart'>, at: number): { id: number; attempt: number } {
      closeInterrupted.run(d.id, INTERRUPTED, at)
      const attempt = d.attempts + 1
      const id = Number(insertAttempt.run(d.id, d.serverId, attempt, d.seriesStart, at).lastInsertRowid)
      countAttempt.run(d.id, attempt, at)
      return { id, attempt }
    },
    // At start-up, before any job runs: every attempt still pending was cut short by the previous
    // process. Queued deliveries are retried by their jobs; a test has no job and just failed.
    closeInterrupted(at: number): number {
      failInterruptedTests.run(at)
      return closeAllInterrupted.run(INTERRUPTED, at).changes
    },
    endAttempt(attemptId: number, end: AttemptEnd) {
      endAttempt.run({ id: attemptId, ...end })
    },
    setStatus: (id: string, status: DeliveryStatus, nextAttemptAt: number | null, at: number) => { setStatus.run(id, status, nextAttemptAt, at) },
    attemptInProgress: (id: string) => hasPending.get(id) !== null,
    startSeries: (id: string, seriesStart: number, at: number) => { newSeries.run(id, seriesStart, at) },
    // Newest first; `before` is an attempt id (exclusive).
    attempts(serverId: string, before: number, limit: number, filter: AttemptFilter = {}): AttemptRow[] {
      const rows = list.all({ serverId, before, limit, channel: filter.channel ?? null, status: filter.status ?? null })
      return (rows as (Omit<AttemptRow, 'test'> & { test: number })[]).map((r) => ({ ...r, test: r.test === 1 }))
    },
    insert(d: { id: string; serverId: string; voteId: string | null; channel: Channel; test: boolean; pseudo: string; payload: VoteEvent; at: number }) {
      insert.run(d.id, d.serverId, d.voteId, d.channel, d.test ? 1 : 0, d.pseudo, JSON.stringify(d.payload), d.at, d.at, d.at)
    },
  }
}
export type DeliveriesRepo = ReturnType<typeof deliveriesRepo>

// Job kind that performs one attempt of a delivery; its payload is { deliveryId }.
export const DELIVERY_JOB = 'delivery'
