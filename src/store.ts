import type { PasswordResetsRepo, SessionsRepo, SettingsRepo, UsersRepo } from './accounts/repo.ts'
import { sqlitePasswordResetsRepo, sqliteSessionsRepo, sqliteSettingsRepo, sqliteUsersRepo } from './accounts/sqlite-repo.ts'
import type { AuditRepo } from './audit/repo.ts'
import { sqliteAuditRepo } from './audit/sqlite-repo.ts'
import type { CaptchaRepo } from './captcha/repo.ts'
import { sqliteCaptchaRepo } from './captcha/sqlite-repo.ts'
import type { ChannelsRepo } from './channels/repo.ts'
import { sqliteChannelsRepo } from './channels/sqlite-repo.ts'
import type { ClusterRepo } from './cluster/repo.ts'
import { migrate, refuseMigratingUnderServe } from './db/migrate.ts'
import { closeToOthers, openDatabase } from './db/open.ts'
import { readBatches, type ReadBatches } from './db/read-batch.ts'
import { prepareOnFirstUse } from './db/prepare-on-first-use.ts'
import { createSqliteStore } from './db/sqlite-store.ts'
import type { StoreControl, StoreWrites } from './db/store.ts'
import type { DeliveriesRepo } from './deliveries/repo.ts'
import { sqliteDeliveriesRepo } from './deliveries/sqlite-repo.ts'
import type { JobsRepo } from './jobs/repo.ts'
import { sqliteJobsRepo } from './jobs/sqlite-repo.ts'
import type { KeysRepo } from './keys/repo.ts'
import { sqliteKeysRepo } from './keys/sqlite-repo.ts'
import type { ListingPolicy, RankingRepo, ServersRepo } from './servers/repo.ts'
import { sqliteRankingRepo } from './servers/sqlite-ranking.ts'
import { sqliteServersRepo } from './servers/sqlite-repo.ts'
import type { StatsRepo } from './stats/repo.ts'
import { sqliteStatsRepo } from './stats/sqlite-repo.ts'
import type { VerificationRepo } from './verification/repo.ts'
import { sqliteVerificationRepo } from './verification/sqlite-repo.ts'
import type { VotesRepo } from './votes/repo.ts'
import { sqliteVotesRepo } from './votes/sqlite-repo.ts'

// Every repository of the site, one per group of tables: the only code with SQL. Each has a SQLite
// and a PostgreSQL implementation (src/store-postgres.ts).
export interface Repositories {
  settings: SettingsRepo
  users: UsersRepo
  sessions: SessionsRepo
  passwordResets: PasswordResetsRepo
  audit: AuditRepo
  servers: ServersRepo
  ranking: RankingRepo
  keys: KeysRepo
  votes: VotesRepo
  verification: VerificationRepo
  channels: ChannelsRepo
  deliveries: DeliveriesRepo
  jobs: JobsRepo
  stats: StatsRepo
  captcha: CaptchaRepo
}

// The database as the code sees it: the repositories, write() for what must be atomic, and
// what several instances share through it (null on SQLite, which one process uses).
export type Store = Repositories & StoreWrites<Repositories> & StoreControl & { readonly cluster: ClusterRepo | null }

type Database = ReturnType<typeof openDatabase>

// The SQLite implementation of every repository, on one connection. `policy`: the site's rule of
// which servers the public sees, which the servers' and the ranking's queries apply.
function sqliteRepositories(db: Database, policy: ListingPolicy, reads: ReadBatches) {
  return {
    settings: sqliteSettingsRepo(db),
    users: sqliteUsersRepo(db),
    sessions: sqliteSessionsRepo(db),
    passwordResets: sqlitePasswordResetsRepo(db),
    audit: sqliteAuditRepo(db),
    servers: sqliteServersRepo(db, policy),
    ranking: sqliteRankingRepo(db, policy),
    keys: sqliteKeysRepo(db),
    votes: sqliteVotesRepo(db),
    verification: sqliteVerificationRepo(db, reads),
    channels: sqliteChannelsRepo(db),
    deliveries: sqliteDeliveriesRepo(db),
    jobs: sqliteJobsRepo(db),
    stats: sqliteStatsRepo(db),
    captcha: sqliteCaptchaRepo(db),
  } satisfies Repositories
}

// The store over an open, migrated SQLite database. Its repositories answer plain values, which
// its type keeps (tests read them without awaiting); their statements are compiled at first use.
export function sqliteStore(db: Database, policy: ListingPolicy) {
  prepareOnFirstUse(db)
  const reads = readBatches(db)
  return { ...createSqliteStore(db, sqliteRepositories(db, policy, reads), reads.close), cluster: null }
}
export type SqliteStore = ReturnType<typeof sqliteStore>

// Opens the SQLite file, applies the migrations it lacks and builds the store. `migrated`: the
// migrations applied now. `besideSite`: a command run beside the site, which must not migrate the
// database of a running serve.
export function openSqliteStore(path: string, now: number, policy: ListingPolicy, besideSite = false): { store: SqliteStore; migrated: string[] } {
  const db = openDatabase(path)
  try {
    if (besideSite) refuseMigratingUnderServe(db, path)
    const migrated = migrate(db, undefined, now)
    if (migrated.length) closeToOthers(path)
    return { store: sqliteStore(db, policy), migrated }
  } catch (e) {
    db.close()
    throw e
  }
}
