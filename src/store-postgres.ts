// The PostgreSQL half of src/store.ts, in a module of its own: the site loads it (and Bun's
// PostgreSQL client) only when database.url is set, so a SQLite site never holds its code.
import { postgresPasswordResetsRepo, postgresSessionsRepo, postgresSettingsRepo, postgresUsersRepo } from './accounts/postgres-repo.ts'
import { postgresAuditRepo } from './audit/postgres-repo.ts'
import { postgresCaptchaRepo } from './captcha/postgres-repo.ts'
import { postgresChannelsRepo } from './channels/postgres-repo.ts'
import { postgresClusterRepo } from './cluster/postgres-repo.ts'
import { connectPostgres, postgresFault, type Pg, type PostgresOptions } from './db/postgres-client.ts'
import { migratePostgres } from './db/postgres-migrate.ts'
import { createPostgresStore } from './db/postgres-store.ts'
import { postgresDeliveriesRepo } from './deliveries/postgres-repo.ts'
import { postgresJobsRepos } from './jobs/postgres-repo.ts'
import { postgresKeysRepo } from './keys/postgres-repo.ts'
import { postgresRankingRepo } from './servers/postgres-ranking.ts'
import { postgresServersRepo } from './servers/postgres-repo.ts'
import type { ListingPolicy } from './servers/repo.ts'
import { postgresStatsRepo } from './stats/postgres-repo.ts'
import type { Repositories, Store } from './store.ts'
import { postgresVerificationRepo } from './verification/postgres-repo.ts'
import { postgresVotesRepo } from './votes/postgres-repo.ts'

// The PostgreSQL implementation of every repository, over one handle (the pool or a transaction).
function postgresRepositories(policy: ListingPolicy) {
  const jobs = postgresJobsRepos()
  return (pg: Pg, afterCommit: (fn: () => void) => void) => ({
    settings: postgresSettingsRepo(pg),
    users: postgresUsersRepo(pg),
    sessions: postgresSessionsRepo(pg),
    passwordResets: postgresPasswordResetsRepo(pg),
    audit: postgresAuditRepo(pg),
    servers: postgresServersRepo(pg, policy),
    ranking: postgresRankingRepo(pg, policy),
    keys: postgresKeysRepo(pg),
    votes: postgresVotesRepo(pg),
    verification: postgresVerificationRepo(pg),
    channels: postgresChannelsRepo(pg),
    deliveries: postgresDeliveriesRepo(pg),
    jobs: jobs(pg, afterCommit),
    stats: postgresStatsRepo(pg),
    captcha: postgresCaptchaRepo(pg),
  } satisfies Repositories)
}

// The store over a pool of a migrated PostgreSQL database.
export const postgresStore = (pg: Pg, policy: ListingPolicy): Store => ({ ...createPostgresStore(pg, postgresRepositories(policy)), cluster: postgresClusterRepo(pg) })

// Connects to the PostgreSQL database, applies the migrations it lacks (under an advisory lock)
// and builds the store. `label`: the database's address without its password, for messages.
export async function openPostgresStore(o: PostgresOptions & { label: string }, now: number, policy: ListingPolicy): Promise<{ store: Store; migrated: string[] }> {
  const pg = connectPostgres(o)
  try {
    const migrated = await migratePostgres(pg, undefined, now)
    return { store: postgresStore(pg, policy), migrated }
  } catch (e) {
    await pg.close()
    throw postgresFault(e, o.label)
  }
}
