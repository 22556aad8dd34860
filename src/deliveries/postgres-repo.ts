import { exec, jsonParam, row, rows, type Pg } from '../db/postgres-client.ts'
import { INTERRUPTED, type AttemptRow, type DeliveriesRepo, type Delivery, type QueueCounts, type VoteEvent } from './repo.ts'

const INSERT = `INSERT INTO delivery (id, server_id, vote_id, channel, test, pseudo, payload, status, next_attempt_at, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $8, $8)`
const GET = `SELECT id, server_id AS "serverId", vote_id AS "voteId", channel, test, pseudo, payload, status, attempts,
  series_start AS "seriesStart", next_attempt_at AS "nextAttemptAt", created_at AS "createdAt" FROM delivery WHERE id = $1`
// Many attempts begun in one statement: each counted on its delivery if one is still due from its
// series, a pending attempt left by a process that died closed as interrupted, and the attempt row
// written 'pending'. The rate-limited attempts of the series are counted as they were before it
// (the statement's snapshot: the new row is not rate limited in any case).
const START_ATTEMPTS = `WITH s AS (SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS s(n int, id text, series int, at bigint)),
  d AS (UPDATE delivery SET attempts = delivery.attempts + 1, updated_at = s.at FROM s
         WHERE delivery.id = s.id AND delivery.series_start = s.series AND delivery.status NOT IN ('succeeded', 'gave_up')
         RETURNING s.n, delivery.id, delivery.server_id, delivery.attempts, delivery.series_start, s.at),
  closed AS (UPDATE delivery_attempt a SET status = 'failed', error = $2, next_attempt_at = d.at FROM d
              WHERE a.delivery_id = d.id AND a.status = 'pending'),
  started AS (INSERT INTO delivery_attempt (delivery_id, server_id, attempt, series_start, status, started_at)
               SELECT id, server_id, attempts, series_start, 'pending', at FROM d RETURNING id, delivery_id)
  SELECT d.n, started.id, d.attempts AS attempt, d.series_start AS "seriesStart",
    (SELECT count(*) FROM delivery_attempt r WHERE r.delivery_id = d.id AND r.series_start = d.series_start AND r.rate_limited = 1) AS "rateLimited"
  FROM d JOIN started ON started.delivery_id = d.id`
// Many attempts closed, and their deliveries' statuses set, in one statement: each only while it
// is still its delivery's latest attempt, in its current series (DeliveriesRepo.endAttempts). The
// check is made on the delivery row, which a later attempt's start (or a redeliver) writes, and
// that row is updated before the attempt's (the main statement reads `latest`), as in
// START_ATTEMPTS: under READ COMMITTED an end that waited for such a start's commit checks the
// row again as committed, and writes nothing.
const END_ATTEMPTS = `WITH e AS (SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS e(attempt_id bigint, delivery_id text, status text, error text,
    http_status int, duration_ms int, next_attempt_at bigint, rate_limited int, at bigint)),
  latest AS (UPDATE delivery SET status = e.status, next_attempt_at = e.next_attempt_at, updated_at = e.at
              FROM e JOIN delivery_attempt a ON a.id = e.attempt_id
              WHERE delivery.id = e.delivery_id AND a.delivery_id = delivery.id AND a.attempt = delivery.attempts AND a.series_start = delivery.series_start
              RETURNING e.attempt_id)
  UPDATE delivery_attempt a SET status = e.status, error = e.error, http_status = e.http_status, duration_ms = e.duration_ms,
    next_attempt_at = e.next_attempt_at, rate_limited = e.rate_limited
  FROM e JOIN latest ON latest.attempt_id = e.attempt_id WHERE a.id = e.attempt_id`
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
    async startAttempts(starts) {
      const list = starts.map((s, n) => ({ n, id: s.deliveryId, series: s.series, at: s.at }))
      const found = await rows<{ n: number; id: number; attempt: number; seriesStart: number; rateLimited: number }>(pg, START_ATTEMPTS, [JSON.stringify(list), INTERRUPTED])
      const byIndex = new Map(found.map((r) => [r.n, r]))
      return starts.map((_, n) => {
        const r = byIndex.get(n)
        return r ? { id: r.id, attempt: r.attempt, seriesAttempt: r.attempt - r.seriesStart + 1 - r.rateLimited, rateLimited: r.rateLimited } : null
      })
    },
    async closeInterrupted(at, startedBefore) {
      await exec(pg, FAIL_INTERRUPTED_TESTS, [at, startedBefore])
      return exec(pg, CLOSE_ALL_INTERRUPTED, [INTERRUPTED, at, startedBefore])
    },
    async endAttempts(ends) {
      const list = ends.map((e) => ({
        attempt_id: e.attemptId, delivery_id: e.deliveryId, status: e.status, error: e.error, http_status: e.httpStatus, duration_ms: e.durationMs,
        next_attempt_at: e.nextAttemptAt, rate_limited: e.rateLimited ? 1 : 0, at: e.at,
      }))
      await exec(pg, END_ATTEMPTS, [jsonParam(list)])
    },
    attemptInProgress: async (id) => (await row(pg, `SELECT 1 FROM delivery_attempt WHERE delivery_id = $1 AND status = 'pending' LIMIT 1`, [id])) !== null,
    async startSeries(id, seriesStart, at) {
      // Under READ COMMITTED the row is checked again once an attempt being begun meanwhile has
      // committed: its count has then moved on, and nothing is written.
      return (await exec(pg, `UPDATE delivery SET status = 'pending', series_start = $2, next_attempt_at = $3, updated_at = $3 WHERE id = $1 AND attempts = $2 - 1 AND series_start < $2`, [id, seriesStart, at])) > 0
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
