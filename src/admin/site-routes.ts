import { Elysia } from 'elysia'
import { ownerAuth } from '../accounts/guard.ts'
import { AdminErrors } from '../accounts/schema.ts'
import type { SessionDeps } from '../accounts/session.ts'
import type { AuditRepo } from '../audit/repo.ts'
import { auditJson } from '../audit/schema.ts'
import { effectiveConfig } from '../config/effective.ts'
import type { Config } from '../config/load.ts'
import type { DeliveriesRepo } from '../deliveries/repo.ts'
import { pageParams } from '../http/paging.ts'
import { refusal } from '../http/errors.ts'
import { errorAnswer, iso, isoOrNull } from '../http/schema.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Scheduler, TaskInfo } from '../jobs/scheduler.ts'
import type { StatsRepo } from '../stats/repo.ts'
import { backupResponse, type BackupDeps } from './backup.ts'
import { AuditPage, AuditQuery, ConfigAnswer, QueueAnswer, TaskList } from './schema.ts'

export type AdminSiteRoutesDeps = SessionDeps & BackupDeps & {
  config: Config
  scheduler: Pick<Scheduler, 'tasks'>
  queue: Pick<JobQueue, 'pending'>
  store: { deliveries: DeliveriesRepo; stats: StatsRepo; audit: AuditRepo }
}

const tags = ['Admin']
const BackupErrors = { 409: errorAnswer('CONFLICT: the site\'s database is PostgreSQL, backed up with its own tools (pg_dump, continuous archiving).') }
const DAY_MS = 24 * 3600_000

const taskJson = (task: TaskInfo) => ({
  id: task.id, title: task.title, everyMs: task.everyMs, running: task.running, runs: task.runs, leftToOthers: task.leftToOthers,
  lastRunAt: isoOrNull(task.lastRunAt), lastDurationMs: task.lastDurationMs,
  outcome: task.lastRunAt === null ? null : task.lastError === null ? 'ok' as const : 'error' as const,
  error: task.lastError, nextRunAt: iso(task.nextRunAt),
})

// What an administrator sees of the running site: its scheduled work, the delivery queue and the
// last ping round, a backup to download, the configuration it runs with, and the audit log.
export function adminSiteRoutes(rt: AdminSiteRoutesDeps) {
  return new Elysia({ name: 'admin.site-routes' })
    .use(ownerAuth(rt))
    .get('/api/v1/admin/tasks', () => ({ ok: true as const, tasks: rt.scheduler.tasks().map(taskJson) }), {
      admin: true,
      response: { 200: TaskList, ...AdminErrors },
      detail: {
        summary: 'Scheduled tasks', tags,
        description: 'Each periodic task of the site (ping rounds with their rollups, the retention of raw samples, the job queue that runs deliveries, the API keys\' last use, the purges of expired sessions, reset links and captcha solutions, the rate limiters\' sweep): its period, its last run (time, duration, outcome and error, since the site started) and its next run.',
      },
    })
    .get('/api/v1/admin/queue', async () => {
      const now = rt.clock.now()
      const counts = await rt.store.deliveries.queueCounts(now - DAY_MS)
      const jobs = await rt.queue.pending()
      const round = await rt.store.stats.lastRound()
      return {
        ok: true as const,
        deliveries: { pending: counts.pending, retrying: counts.retrying, gaveUpLast24h: counts.gaveUp },
        jobs: { total: jobs.total, due: jobs.due, running: jobs.leased },
        lastPingRound: round && {
          startedAt: iso(round.t), finishedAt: iso(round.finishedAt), servers: round.servers, up: round.up,
          down: round.servers - round.up, durationMs: round.durationMs,
        },
      }
    }, {
      admin: true,
      response: { 200: QueueAnswer, ...AdminErrors },
      detail: {
        summary: 'Delivery queue and the last ping round', tags,
        description: 'Votifier and webhook deliveries waiting for their first attempt, waiting for a retry, and given up in the last 24 hours (test deliveries are not counted); the durable job queue; and the last ping round (null before the first): servers pinged, up, down, how long the pings took.',
      },
    })
    .get('/api/v1/admin/backup', ({ user, request }) => {
      // A GET, so the Origin rule does not cover it, and a top-level navigation from another site
      // carries the SameSite=Lax cookie: any page could make an administrator's browser copy the
      // whole database (password hashes, secrets) to its downloads, once per visit. The
      // dashboard's link is same-origin; an address typed in is "none".
      const from = request.headers.get('sec-fetch-site')
      if (from === 'cross-site' || from === 'same-site') throw refusal('CROSS_SITE', 'cross-site request refused: download the backup from the dashboard (Site tab) of this site')
      return backupResponse(rt, user)
    }, {
      admin: true,
      detail: {
        summary: 'Download a backup of the database', tags,
        description: 'The live database as one consistent SQLite file, the same snapshot as `votelist backup` (VACUUM INTO, made while the site keeps running), streamed as an attachment named `votelist-<time>.db` (`application/vnd.sqlite3`, no-store). The temporary copy, written beside the database, is removed as soon as the download starts. It holds everything, password hashes and webhook secrets included: keep it safe. Each download is written to the audit log. A site on PostgreSQL answers 409 CONFLICT: back its database up with `pg_dump` or the database server\'s continuous archiving.',
        responses: {
          200: { description: 'The database file', content: { 'application/vnd.sqlite3': { schema: { type: 'string', format: 'binary' } } } },
          ...Object.fromEntries(Object.entries({ ...AdminErrors, ...BackupErrors }).map(([status, schema]) => [status, { description: schema.description, content: { 'application/json': { schema } } }])),
        },
      },
    })
    .get('/api/v1/admin/config', () => ({
      ok: true as const,
      file: rt.config.source,
      siteUrl: { base: rt.siteUrl.base(), configured: rt.siteUrl.configured, origins: rt.siteUrl.origins() },
      settings: effectiveConfig(rt.config),
    }), {
      admin: true,
      response: { 200: ConfigAnswer, ...AdminErrors },
      detail: {
        summary: 'The configuration in effect', tags,
        description: 'Every key of votelist.toml with the value the site runs with (as written in TOML), its built-in default, and where the value came from: the file or the default. Read only: the file is the one place settings change (then restart). Secrets are masked: keys marked secret, and the password of any URL that carries one.',
      },
    })
    .get('/api/v1/admin/audit', async ({ query }) => {
      const { limit, before } = pageParams(query)
      const rows = await rt.store.audit.page(before, limit + 1)
      const page = rows.slice(0, limit)
      return { ok: true as const, entries: page.map(auditJson), next: rows.length > limit ? String(page[page.length - 1].id) : null }
    }, {
      admin: true,
      query: AuditQuery,
      response: { 200: AuditPage, ...AdminErrors, 400: errorAnswer('INVALID_PARAMETER: `limit` or `before` out of range; `field` names it.') },
      detail: {
        summary: 'The audit log', tags,
        description: 'Every change made through the administrator\'s API (accounts disabled, enabled, promoted, demoted, deleted; reset links made and used; another account\'s servers edited, hidden, shown or deleted, or their API keys and delivery targets changed, or test votes and redeliveries sent, by an administrator) and every backup downloaded: who, what, when, on which target. Newest first; `limit` 1–200 (default 50); pass `next` back as `before` for the following page.',
      },
    })
}
