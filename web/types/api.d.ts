// The JSON answers of the site's API that the scripts under web/ read, for the type check of
// those scripts (`tsc --noEmit`; tsconfig.json checks web/ with checkJs). Written by hand from the
// OpenAPI document (/api/docs/json): each interface names, with @answer, the response schema it
// mirrors (method, path, status, then the place inside the body: `server`, `servers[]` for the
// items of a list), and test/dashboard/api-types.test.ts checks that it has the same fields.
// Not served: the site serves web/assets and web/dashboard only (web/types is for the check).

/** @answer GET /api/v1/votes/check 400 */
export interface ErrorBody {
  ok: false
  error: ErrorDetail
}

/**
 * `field`: the one body field, query or path parameter at fault, where there is one; `reason`:
 * which refusal, where one code covers several and no field is at fault.
 * @answer GET /api/v1/votes/check 400 error
 */
export interface ErrorDetail {
  code: string
  message: string
  field?: string
  reason?: string
}

/** @answer DELETE /api/v1/me/servers/{slug} 200 */
export interface OkAnswer {
  ok: true
}

/** @answer GET /api/v1/auth/status 200 */
export interface AuthStatus {
  ok: true
  setupNeeded: boolean
  registrationOpen: boolean
}

/**
 * @answer GET /api/v1/me 200
 * @answer POST /api/v1/auth/login 200
 * @answer POST /api/v1/auth/register 201
 * @answer POST /api/v1/auth/reset 200
 */
export interface UserAnswer {
  ok: true
  user: User
}

/** @answer GET /api/v1/me 200 user */
export interface User {
  id: string
  email: string
  isAdmin: boolean
  createdAt: string
}

/** @answer GET /api/v1/admin/users 200 */
export interface AdminUsersAnswer {
  ok: true
  users: AdminUser[]
}

/**
 * @answer GET /api/v1/admin/users 200 users[]
 * @answer PATCH /api/v1/admin/users/{id} 200 user
 */
export interface AdminUser extends User {
  disabled: boolean
  servers: number
}

/** @answer PATCH /api/v1/admin/users/{id} 200 */
export interface AdminUserAnswer {
  ok: true
  user: AdminUser
}

/** @answer POST /api/v1/admin/users/{id}/reset-link 200 */
export interface ResetLinkAnswer {
  ok: true
  url: string
  expiresAt: string
}

/** @answer GET /api/v1/admin/tasks 200 */
export interface TasksAnswer {
  ok: true
  tasks: Task[]
}

/** @answer GET /api/v1/admin/tasks 200 tasks[] */
export interface Task {
  id: string
  title: string
  everyMs: number
  running: boolean
  runs: number
  leftToOthers: number
  lastRunAt: string | null
  lastDurationMs: number | null
  outcome: 'ok' | 'error' | null
  error: string | null
  nextRunAt: string
}

/** @answer GET /api/v1/admin/queue 200 */
export interface QueueAnswer {
  ok: true
  deliveries: QueueDeliveries
  jobs: QueueJobs
  lastPingRound: PingRound | null
}

/** @answer GET /api/v1/admin/queue 200 deliveries */
export interface QueueDeliveries {
  pending: number
  retrying: number
  gaveUpLast24h: number
}

/** @answer GET /api/v1/admin/queue 200 jobs */
export interface QueueJobs {
  total: number
  due: number
  running: number
}

/** @answer GET /api/v1/admin/queue 200 lastPingRound */
export interface PingRound {
  startedAt: string
  finishedAt: string
  servers: number
  up: number
  down: number
  durationMs: number
}

/** @answer GET /api/v1/admin/config 200 */
export interface ConfigAnswer {
  ok: true
  file: string | null
  siteUrl: SiteAddress
  settings: Setting[]
}

/** @answer GET /api/v1/admin/config 200 siteUrl */
export interface SiteAddress {
  base: string
  configured: boolean
  origins: string[]
}

/** @answer GET /api/v1/admin/config 200 settings[] */
export interface Setting {
  key: string
  value: string
  default: string
  source: 'file' | 'default'
  secret: boolean
}

/** @answer GET /api/v1/admin/audit 200 */
export interface AuditAnswer {
  ok: true
  entries: AuditEntry[]
  next: string | null
}

/** @answer GET /api/v1/admin/audit 200 entries[] */
export interface AuditEntry {
  id: number
  at: string
  actor: { id: string; email: string }
  action: string
  target: AuditTarget
  detail: Record<string, string | number | boolean>
}

/** @answer GET /api/v1/admin/audit 200 entries[].target */
export interface AuditTarget {
  type: 'user' | 'server' | 'site'
  id: string
  label: string
}

export type Edition = 'java' | 'bedrock'

/**
 * @answer POST /api/v1/me/servers 201
 * @answer PATCH /api/v1/me/servers/{slug} 200
 */
export interface ServerAnswer {
  ok: true
  server: Server
}

/**
 * A server as saved.
 * @answer POST /api/v1/me/servers 201 server
 */
export interface Server {
  id: string
  slug: string
  name: string
  description: string
  edition: Edition
  host: string
  port: number | null
  address: string
  version: string
  modes: string[]
  website: string
  hidden: boolean
  verified: boolean
  verifiedAt: string | null
  listed: boolean
  unlistedReason: UnlistedReason | null
  rank: number | null
  monthlyVotes: number
  totalVotes: number
  voteUrl: string
  badgeUrl: string
  iconUrl: string
  bannerUrl: string | null
  createdAt: string
  updatedAt: string
}

// Why a server is off the public site (src/servers/listed.ts).
export type UnlistedReason = 'hidden' | 'disabled' | 'claimed' | 'unverified'
/** @answer PUT /api/v1/me/servers/{slug}/banner 200 */
export interface BannerAnswer {
  ok: true
  banner: Banner
}

/** @answer PUT /api/v1/me/servers/{slug}/banner 200 banner */
export interface Banner {
  url: string
  type: string
  width: number
  height: number
  size: number
}

/**
 * A server in the owner's lists: with its last ping (null before the first one).
 * @answer GET /api/v1/me/servers 200 servers[]
 */
export interface OwnerServer extends Server {
  online: boolean | null
  players: Players | null
  lastPingAt: string | null
  pingError: string | null
}

/** @answer GET /api/v1/me/servers 200 servers[].players */
export interface Players {
  online: number
  max: number
}

/** @answer GET /api/v1/me/servers 200 */
export interface ServersAnswer {
  ok: true
  servers: OwnerServer[]
}

/** @answer GET /api/v1/me/servers/{slug} 200 */
export interface ServerDetailAnswer {
  ok: true
  server: ServerDetail
}

/** @answer GET /api/v1/me/servers/{slug} 200 server */
export interface ServerDetail extends OwnerServer {
  webhook: WebhookSettings | null
  votifier: VotifierSettings | null
  discord: DiscordSettings | null
}

/** @answer GET /api/v1/admin/servers 200 */
export interface AdminServersAnswer {
  ok: true
  servers: AdminServer[]
}

/** @answer GET /api/v1/admin/servers 200 servers[] */
export interface AdminServer extends OwnerServer {
  owner: { id: string; email: string }
  conflicts: AddressConflict[]
}

/**
 * Another account's listing of the same address.
 * @answer GET /api/v1/admin/servers 200 servers[].conflicts[]
 */
export interface AddressConflict {
  slug: string
  name: string
  owner: { id: string; email: string }
  verified: boolean
}

/**
 * @answer GET /api/v1/me/servers/{slug}/verification 200
 * @answer POST /api/v1/me/servers/{slug}/verification 200
 */
export interface VerificationAnswer {
  ok: true
  token: string
  verified: boolean
  verifiedAt: string | null
  address: string
  instructions: string[]
  motd?: string
}

/** @answer PUT /api/v1/me/servers/{slug}/discord 200 */
export interface DiscordAnswer {
  ok: true
  discord: DiscordSettings
}

/** @answer PUT /api/v1/me/servers/{slug}/discord 200 discord */
export interface DiscordSettings {
  url: string
  /** Why the site would not send to this URL now (its admin changed network.allow_private_targets). */
  refused?: string
}

/**
 * @answer PUT /api/v1/me/servers/{slug}/webhook 200
 * @answer POST /api/v1/me/servers/{slug}/webhook/rotate 200
 */
export interface WebhookAnswer {
  ok: true
  webhook: WebhookSettings
}

/** @answer PUT /api/v1/me/servers/{slug}/webhook 200 webhook */
export interface WebhookSettings {
  url: string
  secret: string
  /** Why the site would not send to this URL now (its admin changed network.allow_private_targets). */
  refused?: string
}

/** @answer PUT /api/v1/me/servers/{slug}/votifier 200 */
export interface VotifierAnswer {
  ok: true
  votifier: VotifierSettings
}

/**
 * v1 has `publicKey`; v2 has `token` and `configLine`.
 * @answer PUT /api/v1/me/servers/{slug}/votifier 200 votifier
 */
export interface VotifierSettings {
  host: string
  port: number
  protocol: 'v1' | 'v2'
  publicKey?: string
  token?: string
  configLine?: string
}

/** @answer GET /api/v1/me/servers/{slug}/keys 200 */
export interface KeysAnswer {
  ok: true
  keys: ApiKey[]
  perMinute: number
}

/** @answer GET /api/v1/me/servers/{slug}/keys 200 keys[] */
export interface ApiKey {
  id: string
  prefix: string
  name: string
  createdAt: string
  lastUsedAt: string | null
}

/**
 * The key itself is in this answer only.
 * @answer POST /api/v1/me/servers/{slug}/keys 201
 */
export interface CreatedKeyAnswer {
  ok: true
  key: string
  id: string
  prefix: string
}

export type Channel = 'votifier' | 'webhook' | 'discord'

/** @answer POST /api/v1/me/servers/{slug}/test 200 */
export interface TestAnswer {
  ok: true
  results: TestResult[]
}

/** @answer POST /api/v1/me/servers/{slug}/test 200 results[] */
export interface TestResult {
  channel: Channel
  status: 'succeeded' | 'failed'
  error: string | null
  durationMs: number
}

export type AttemptStatus = 'succeeded' | 'failed' | 'gave_up' | 'pending'

/** @answer GET /api/v1/me/servers/{slug}/deliveries 200 */
export interface DeliveriesAnswer {
  ok: true
  deliveries: DeliveryAttempt[]
  next: string | null
  attemptsPerSeries: number
}

/** @answer GET /api/v1/me/servers/{slug}/deliveries 200 deliveries[] */
export interface DeliveryAttempt {
  id: string
  deliveryId: string
  voteId: string | null
  pseudo: string
  channel: Channel
  test: boolean
  attempt: number
  seriesAttempt: number
  rateLimited: boolean
  redelivery: boolean
  status: AttemptStatus
  error: string | null
  httpStatus: number | null
  durationMs: number | null
  startedAt: string
  nextAttemptAt: string | null
}

/** @answer POST /api/v1/me/servers/{slug}/deliveries/{id}/redeliver 200 */
export interface RedeliverAnswer {
  ok: true
  delivery: Redelivery
}

/** @answer POST /api/v1/me/servers/{slug}/deliveries/{id}/redeliver 200 delivery */
export interface Redelivery {
  id: string
  channel: Channel
  status: 'pending'
  nextAttempt: number
  nextAttemptAt: string
}

/**
 * @answer GET /api/v1/servers/{slug}/history 200
 * @answer GET /api/v1/stats/global 200
 */
export interface HistoryAnswer {
  ok: true
  range: string
  step: string
  summary: HistorySummary
  points: HistoryPoint[]
}

/** @answer GET /api/v1/servers/{slug}/history 200 summary */
export interface HistorySummary {
  avg: number
  median: number
  min: number
  peak: number
  uptime: number
  points: number
}

/** @answer GET /api/v1/servers/{slug}/history 200 points[] */
export interface HistoryPoint {
  t: string
  avg: number
  max: number
}

/** @answer GET /api/v1/vote-token 200 */
export interface VoteToken {
  ok: true
  token: string
  address: string
  family: 4 | 6
  expiresAt: string
}
