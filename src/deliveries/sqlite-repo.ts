import type { Database } from 'bun:sqlite'
import { INTERRUPTED, type AttemptRow, type DeliveriesRepo, type Delivery, type QueueCounts, type VoteEvent } from './repo.ts'

export function sqliteDeliveriesRepo(db: Database) {
  const insert = db.prepare(`INSERT INTO delivery (id, server_id, vote_id, channel, test, pseudo, payload, status, next_attempt_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`)
  const get = db.prepare(`SELECT id, server_id AS serverId, vote_id AS voteId, channel, test, pseudo, payload, status, attempts,
    series_start AS seriesStart, next_attempt_at AS nextAttemptAt, created_at AS createdAt FROM delivery WHERE id = ?`)
  const closeInterrupted = db.prepare(`UPDATE delivery_attempt SET status = 'failed', error = ?2, next_attempt_at = ?3
    WHERE delivery_id = ?1 AND status = 'pending'`)
  const closeAllInterrupted = db.prepare(`UPDATE delivery_attempt SET status = 'failed', error = ?1,
      next_attempt_at = CASE WHEN (SELECT test FROM delivery WHERE id = delivery_id) = 1 THEN NULL ELSE ?2 END
    WHERE status = 'pending' AND started_at < ?3`)
  const failInterruptedTests = db.prepare(`UPDATE delivery SET status = 'failed', updated_at = ?1 WHERE test = 1 AND status = 'pending' AND created_at < ?2`)
  const hasPending = db.prepare(`SELECT 1 FROM delivery_attempt WHERE delivery_id = ? AND status = 'pending' LIMIT 1`)
  // The attempt counted on its delivery, if one is still due from its series.
  const countAttempt = db.prepare(`UPDATE delivery SET attempts = attempts + 1, updated_at = ?3
    WHERE id = ?1 AND series_start = ?2 AND status NOT IN ('succeeded', 'gave_up') RETURNING server_id AS serverId, attempts`)
  const insertAttempt = db.prepare(`INSERT INTO delivery_attempt (delivery_id, server_id, attempt, series_start, status, started_at)
    VALUES (?, ?, ?, ?, 'pending', ?)`)
  const rateLimitedInSeries = db.prepare(`SELECT count(*) AS n FROM delivery_attempt WHERE delivery_id = ? AND series_start = ? AND rate_limited = 1`)
  // Only while it is its delivery's latest attempt, in its current series (DeliveriesRepo.endAttempts).
  const endAttempt = db.prepare(`UPDATE delivery_attempt SET status = $status, error = $error, http_status = $httpStatus,
    duration_ms = $durationMs, next_attempt_at = $nextAttemptAt, rate_limited = $rateLimited
    WHERE id = $attemptId AND EXISTS (SELECT 1 FROM delivery d WHERE d.id = delivery_attempt.delivery_id
      AND d.attempts = delivery_attempt.attempt AND d.series_start = delivery_attempt.series_start)`)
  const setStatus = db.prepare('UPDATE delivery SET status = ?2, next_attempt_at = ?3, updated_at = ?4 WHERE id = ?1')
  const newSeries = db.prepare(`UPDATE delivery SET status = 'pending', series_start = ?2, next_attempt_at = ?3, updated_at = ?3 WHERE id = ?1 AND attempts = ?2 - 1 AND series_start < ?2`)
  // An attempt's place in its series' schedule: the rate-limited attempts before it do not count.
  const list = db.prepare(`SELECT a.id, a.delivery_id AS deliveryId, d.vote_id AS voteId, d.pseudo, d.channel, d.test, a.attempt,
      a.attempt - a.series_start + 1 - (SELECT count(*) FROM delivery_attempt r WHERE r.delivery_id = a.delivery_id
        AND r.series_start = a.series_start AND r.attempt < a.attempt AND r.rate_limited = 1) AS seriesAttempt,
      a.rate_limited AS rateLimited, a.series_start > 1 AS redelivery, a.status, a.error, a.http_status AS httpStatus, a.duration_ms AS durationMs,
      a.started_at AS startedAt, a.next_attempt_at AS nextAttemptAt
    FROM delivery_attempt a JOIN delivery d ON d.id = a.delivery_id
    WHERE a.server_id = $serverId AND a.id < $before AND ($channel IS NULL OR d.channel = $channel) AND ($status IS NULL OR a.status = $status)
    ORDER BY a.id DESC LIMIT $limit`)
  // A delivery is retrying once its current series has had an attempt (a redeliver starts over).
  const queueCounts = db.prepare(`SELECT coalesce(sum(status = 'pending' AND attempts < series_start), 0) AS pending,
      coalesce(sum(status = 'pending' AND attempts >= series_start), 0) AS retrying,
      coalesce(sum(status = 'gave_up' AND updated_at >= ?), 0) AS gaveUp
    FROM delivery WHERE status IN ('pending', 'gave_up') AND test = 0`)
  return {
    queueCounts: (since) => queueCounts.get(since) as QueueCounts,
    get(id) {
      const row = get.get(id) as (Omit<Delivery, 'payload' | 'test'> & { payload: string; test: number }) | null
      return row && { ...row, test: row.test === 1, payload: JSON.parse(row.payload) as VoteEvent }
    },
    startAttempts: (starts) => starts.map(({ deliveryId: id, series, at }) => {
      const counted = countAttempt.get(id, series, at) as { serverId: string; attempts: number } | null
      if (!counted) return null
      const attempt = counted.attempts
      // The first attempt of a delivery has no earlier one to close or to count.
      const rateLimited = attempt === 1 ? 0 : (closeInterrupted.run(id, INTERRUPTED, at), (rateLimitedInSeries.get(id, series) as { n: number }).n)
      const attemptId = Number(insertAttempt.run(id, counted.serverId, attempt, series, at).lastInsertRowid)
      return { id: attemptId, attempt, seriesAttempt: attempt - series + 1 - rateLimited, rateLimited }
    }),
    closeInterrupted(at, startedBefore) {
      failInterruptedTests.run(at, startedBefore)
      return closeAllInterrupted.run(INTERRUPTED, at, startedBefore).changes
    },
    endAttempts(ends) {
      for (const e of ends) {
        const ended = endAttempt.run({ attemptId: e.attemptId, status: e.status, error: e.error, httpStatus: e.httpStatus, durationMs: e.durationMs,
          nextAttemptAt: e.nextAttemptAt, rateLimited: e.rateLimited ? 1 : 0 })
        if (ended.changes) setStatus.run(e.deliveryId, e.status, e.nextAttemptAt, e.at)
      }
    },
    attemptInProgress: (id) => hasPending.get(id) !== null,
    startSeries: (id, seriesStart, at) => newSeries.run(id, seriesStart, at).changes > 0,
    attempts(serverId, before, limit, filter = {}) {
      const rows = list.all({ serverId, before, limit, channel: filter.channel ?? null, status: filter.status ?? null })
      return (rows as (Omit<AttemptRow, 'test' | 'rateLimited' | 'redelivery'> & { test: number; rateLimited: number; redelivery: number })[])
        .map((r) => ({ ...r, test: r.test === 1, rateLimited: r.rateLimited === 1, redelivery: r.redelivery === 1 }))
    },
    insert(d) {
      insert.run(d.id, d.serverId, d.voteId, d.channel, d.test ? 1 : 0, d.pseudo, JSON.stringify(d.payload), d.at, d.at, d.at)
    },
  } satisfies DeliveriesRepo
}
