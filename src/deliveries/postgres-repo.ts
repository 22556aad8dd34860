import { exec, row, rows, type Pg } from '../db/postgres-client.ts'
import { INTERRUPTED, type AttemptRow, type DeliveriesRepo, type Delivery, type QueueCounts, type VoteEvent } from './repo.ts'

const INSERT = `INSERT INTO delivery (id, server_id, vote_id, channel, test, pseudo, payload, status, next_attempt_at, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $8, $8)`
const GET = `SELECT id, server_id AS "serverId", vote_id AS "voteId", channel, test, pseudo, payload, status, attempts,
  series_start AS "seriesStart", next_attempt_at AS "nextAttemptAt", created_at AS "createdAt" FROM delivery WHERE id = $1`
const CLOSE_INTERRUPTED = `UPDATE delivery_attempt SET status = 'failed', error = $2, next_attempt_at = $3
  WHERE delivery_id = $1 AND status = 'pending'`
// The attempt row and the delivery's count, in one statement.
const START_ATTEMPT = `WITH d AS (UPDATE delivery SET attempts = $3, updated_at = $5 WHERE id = $1)
  INSERT INTO delivery_attempt (delivery_id, server_id, attempt, series_start, status, started_at)
  VALUES ($1, $2, $3, $4, 'pending', $5) RETURNING id`
const RATE_LIMITED_IN_SERIES = 'SELECT count(*) AS n FROM delivery_attempt WHERE delivery_id = $1 AND series_start = $2 AND rate_limited = 1'
const END_ATTEMPT = `UPDATE delivery_attempt SET status = $2, error = $3, http_status = $4, duration_ms = $5, next_attempt_at = $6,
  rate_limited = $7 WHERE id = $1`
const FAIL_INTERRUPTED_TESTS = `UPDATE delivery SET status = 'failed', updated_at = $1 WHERE test = 1 AND status = 'pending' AND created_at < $2`
const CLOSE_ALL_INTERRUPTED = `UPDATE delivery_attempt a SET status = 'failed', error = $1,
    next_attempt_at = CASE WHEN (SELECT test FROM delivery WHERE id = a.delivery_id) = 1 THEN NULL ELSE $2 END
  WHERE status = 'pending' AND started_at < $3`
// An attempt's place in its series' schedule: the rate-limited attempts before it do not count.
const LIST = `SELECT a.id, a.delivery_id AS "deliveryId", d.vote_id AS "voteId", d.pseudo, d.channel, d.test, a.attempt,
    a.attempt - a.series_start + 1 - (SELECT count(*) FROM delivery_attempt r WHERE r.delivery_id = a.delivery_id
      AND r.series_start = a.series_start AND r.attempt < a.attempt AND r.rate_limited = 1) AS "seriesAttempt",
    a.rate_limited AS "rateLimited", a.series_start > 1 AS redelivery, a.status, a.error, a.http_status AS "httpStatus",
    a.duration_ms AS "durationMs", a.started_at AS "startedAt", a.next_attempt_at AS "nextAttemptAt"
  FROM delivery_attempt a JOIN delivery d ON d.id = a.delivery_id
  WHERE a.server_id = $1 AND a.id < $2 AND ($4::text IS NULL OR d.channel = $4) AND ($5::text IS NULL OR a.status = $5)
  ORDER BY a.id DESC LIMIT $3`
// A delivery is retrying once its current series has had an attempt (a redeliver starts over).
const QUEUE_COUNTS = `SELECT count(*) FILTER (WHERE status = 'pending' AND attempts < series_start) AS pending,
    count(*) FILTER (WHERE status = 'pending' AND attempts >= series_start) AS retrying,
    count(*) FILTER (WHERE status = 'gave_up' AND updated_at >= $1) AS "gaveUp"
  FROM delivery WHERE status IN ('pending', 'gave_up') AND test = 0`

export function postgresDeliveriesRepo(pg: Pg) {
  return {
    async get(id) {
      const r = await row<Omit<Delivery, 'payload' | 'test'> & { payload: string; test: number }>(pg, GET, [id])
      return r && { ...r, test: r.test === 1, payload: JSON.parse(r.payload) as VoteEvent }
    },
    async startAttempt(d, at) {
      await exec(pg, CLOSE_INTERRUPTED, [d.id, INTERRUPTED, at])
      const attempt = d.attempts + 1
      const { n: rateLimited } = (await row<{ n: number }>(pg, RATE_LIMITED_IN_SERIES, [d.id, d.seriesStart]))!
      const { id } = (await row<{ id: number }>(pg, START_ATTEMPT, [d.id, d.serverId, attempt, d.seriesStart, at]))!
      return { id, attempt, seriesAttempt: attempt - d.seriesStart + 1 - rateLimited, rateLimited }
    },
    async closeInterrupted(at, startedBefore) {
      await exec(pg, FAIL_INTERRUPTED_TESTS, [at, startedBefore])
      return exec(pg, CLOSE_ALL_INTERRUPTED, [INTERRUPTED, at, startedBefore])
    },
    async endAttempt(attemptId, end) {
      await exec(pg, END_ATTEMPT, [attemptId, end.status, end.error, end.httpStatus, end.durationMs, end.nextAttemptAt, end.rateLimited ? 1 : 0])
    },
    async setStatus(id, status, nextAttemptAt, at) {
      await exec(pg, 'UPDATE delivery SET status = $2, next_attempt_at = $3, updated_at = $4 WHERE id = $1', [id, status, nextAttemptAt, at])
    },
    attemptInProgress: async (id) => (await row(pg, `SELECT 1 FROM delivery_attempt WHERE delivery_id = $1 AND status = 'pending' LIMIT 1`, [id])) !== null,
    async startSeries(id, seriesStart, at) {
      await exec(pg, `UPDATE delivery SET status = 'pending', series_start = $2, next_attempt_at = $3, updated_at = $3 WHERE id = $1`, [id, seriesStart, at])
    },
    async attempts(serverId, before, limit, filter = {}) {
      const found = await rows<Omit<AttemptRow, 'test' | 'rateLimited'> & { test: number; rateLimited: number }>(pg, LIST,
        [serverId, before, limit, filter.channel ?? null, filter.status ?? null])
      return found.map((r) => ({ ...r, test: r.test === 1, rateLimited: r.rateLimited === 1 }))
    },
    async insert(d) {
      await exec(pg, INSERT, [d.id, d.serverId, d.voteId, d.channel, d.test ? 1 : 0, d.pseudo, JSON.stringify(d.payload), d.at])
    },
    queueCounts: async (since) => (await row<QueueCounts>(pg, QUEUE_COUNTS, [since]))!,
  } satisfies DeliveriesRepo
}
