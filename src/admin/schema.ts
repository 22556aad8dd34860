import { t } from 'elysia'
import { UserJson } from '../accounts/schema.ts'
import { AuditEntryJson } from '../audit/schema.ts'
import { errorAnswer, Int, Iso, merged } from '../http/schema.ts'

// Bodies and answers of the administrator's API (/api/v1/admin/…).

// Those of the routes naming an account, as the OpenAPI document lists them.
export const UnknownUser = { 404: errorAnswer('NOT_FOUND: no account with this id.') }

export const AdminUserJson = merged(UserJson, t.Object({
  disabled: t.Boolean({ description: 'Disabled by an administrator: cannot log in, its servers are not listed, its API keys are refused.' }),
  servers: Int({ description: 'Servers the account owns.' }),
}))
export const AdminUserList = t.Object({ ok: t.Literal(true), users: t.Array(AdminUserJson) })
export const AdminUserAnswer = t.Object({ ok: t.Literal(true), user: AdminUserJson })

export const UserIdParams = t.Object({ id: t.String({ maxLength: 64 }) })

export const UserPatchBody = t.Object({
  disabled: t.Optional(t.Boolean({ error: 'disabled must be true or false' })),
  admin: t.Optional(t.Boolean({ error: 'admin must be true or false' })),
})

export const ResetLinkAnswer = t.Object({
  ok: t.Literal(true),
  url: t.String({ description: 'The dashboard\'s reset page, ending with ?token=<token>: give it to the account\'s owner. Shown only in this answer.' }),
  expiresAt: Iso,
})

export const TaskJson = t.Object({
  id: t.String({ examples: ['stats.ping'] }),
  title: t.String(),
  everyMs: Int({ description: 'Period of the task.' }),
  running: t.Boolean(),
  runs: Int({ description: 'Runs since the site started.' }),
  leftToOthers: Int({ description: 'Periods this instance left to another instance of the site, which ran the task then (a task that runs once per period across the instances of a site on PostgreSQL); 0 with one instance. Runs, last run and outcome are this instance\'s.' }),
  lastRunAt: t.Nullable(Iso),
  lastDurationMs: t.Nullable(Int()),
  outcome: t.Nullable(t.Union([t.Literal('ok'), t.Literal('error')], { description: 'Of the last run; null before the first.' })),
  error: t.Nullable(t.String({ description: 'The last run\'s error.' })),
  nextRunAt: Iso,
})
export const TaskList = t.Object({ ok: t.Literal(true), tasks: t.Array(TaskJson) })

export const QueueAnswer = t.Object({
  ok: t.Literal(true),
  deliveries: t.Object({
    pending: Int({ description: 'Votifier and webhook deliveries waiting for their first attempt.' }),
    retrying: Int({ description: 'Deliveries that failed and wait for a retry.' }),
    gaveUpLast24h: Int({ description: 'Deliveries given up in the last 24 hours (every attempt of the schedule failed, or the receiver answered 410).' }),
  }),
  jobs: t.Object({
    total: Int({ description: 'Jobs in the durable queue.' }),
    due: Int({ description: 'Jobs due now and not running.' }),
    running: Int(),
  }),
  lastPingRound: t.Nullable(t.Object({
    startedAt: Iso,
    finishedAt: Iso,
    servers: Int({ description: 'Listed servers pinged.' }),
    up: Int(),
    down: Int(),
    durationMs: Int({ description: 'From the round\'s start to its last answer.' }),
  })),
})

export const ConfigAnswer = t.Object({
  ok: t.Literal(true),
  file: t.Nullable(t.String({ description: 'The configuration file read at start; null: none, built-in defaults only.' })),
  siteUrl: t.Object({
    base: t.String({ description: 'The base of the links the site writes.' }),
    configured: t.Boolean({ description: 'site.base_url is set; otherwise the site answers as localhost, 127.0.0.1 and [::1].' }),
    origins: t.Array(t.String(), { description: 'The origins the dashboard and the vote form are accepted from.' }),
  }),
  settings: t.Array(t.Object({
    key: t.String({ examples: ['site.name'] }),
    value: t.String({ description: 'As written in votelist.toml; a secret shows as "********".' }),
    default: t.String(),
    source: t.Union([t.Literal('file'), t.Literal('default')]),
    secret: t.Boolean(),
  })),
})

export const AuditQuery = t.Object({ limit: t.Optional(t.String()), before: t.Optional(t.String()) })
export const AuditPage = t.Object({
  ok: t.Literal(true),
  entries: t.Array(AuditEntryJson),
  next: t.Nullable(t.String({ description: 'Pass back as `before` for the next page; null: no more.' })),
})
