// Every migration, embedded into the binary as text. Forward-only: a landed file is never edited;
// a change is a new file. test/db/migrations.test.ts checks these lists against migrations/ and
// migrations/postgres/, whose files are the PostgreSQL twins of the SQLite ones, under the same
// names (test/db/postgres-schema.test.ts checks that both give the same tables and columns).
import m0001 from '../../migrations/0001_accounts_servers.sql' with { type: 'text' }
import m0002 from '../../migrations/0002_votes.sql' with { type: 'text' }
import m0003 from '../../migrations/0003_notifications.sql' with { type: 'text' }
import m0004 from '../../migrations/0004_jobs.sql' with { type: 'text' }
import m0005 from '../../migrations/0005_stats.sql' with { type: 'text' }
import m0020 from '../../migrations/0020_captcha.sql' with { type: 'text' }
import m0040 from '../../migrations/0040_delivery_series.sql' with { type: 'text' }
import m0050 from '../../migrations/0050_stats_median.sql' with { type: 'text' }
import m0060 from '../../migrations/0060_attempt_series.sql' with { type: 'text' }
import m0070 from '../../migrations/0070_listing_media.sql' with { type: 'text' }
import m0075 from '../../migrations/0075_server_ownership.sql' with { type: 'text' }
import m0076 from '../../migrations/0076_discord.sql' with { type: 'text' }
import m0080 from '../../migrations/0080_administration.sql' with { type: 'text' }
import m0081 from '../../migrations/0081_last_ping_round.sql' with { type: 'text' }
import m0090 from '../../migrations/0090_cluster.sql' with { type: 'text' }
import m0093 from '../../migrations/0093_listing_version.sql' with { type: 'text' }
import m0094 from '../../migrations/0094_drop_job_kind.sql' with { type: 'text' }
import m0095 from '../../migrations/0095_vote_address_by_server.sql' with { type: 'text' }
import m0096 from '../../migrations/0096_rate_limit_hit_locked.sql' with { type: 'text' }
import m0097 from '../../migrations/0097_server_purge.sql' with { type: 'text' }
import p0001 from '../../migrations/postgres/0001_accounts_servers.sql' with { type: 'text' }
import p0002 from '../../migrations/postgres/0002_votes.sql' with { type: 'text' }
import p0003 from '../../migrations/postgres/0003_notifications.sql' with { type: 'text' }
import p0004 from '../../migrations/postgres/0004_jobs.sql' with { type: 'text' }
import p0005 from '../../migrations/postgres/0005_stats.sql' with { type: 'text' }
import p0020 from '../../migrations/postgres/0020_captcha.sql' with { type: 'text' }
import p0040 from '../../migrations/postgres/0040_delivery_series.sql' with { type: 'text' }
import p0050 from '../../migrations/postgres/0050_stats_median.sql' with { type: 'text' }
import p0060 from '../../migrations/postgres/0060_attempt_series.sql' with { type: 'text' }
import p0070 from '../../migrations/postgres/0070_listing_media.sql' with { type: 'text' }
import p0075 from '../../migrations/postgres/0075_server_ownership.sql' with { type: 'text' }
import p0076 from '../../migrations/postgres/0076_discord.sql' with { type: 'text' }
import p0080 from '../../migrations/postgres/0080_administration.sql' with { type: 'text' }
import p0081 from '../../migrations/postgres/0081_last_ping_round.sql' with { type: 'text' }
import p0090 from '../../migrations/postgres/0090_cluster.sql' with { type: 'text' }
import p0093 from '../../migrations/postgres/0093_listing_version.sql' with { type: 'text' }
import p0094 from '../../migrations/postgres/0094_drop_job_kind.sql' with { type: 'text' }
import p0095 from '../../migrations/postgres/0095_vote_address_by_server.sql' with { type: 'text' }
import p0096 from '../../migrations/postgres/0096_rate_limit_hit_locked.sql' with { type: 'text' }
import p0097 from '../../migrations/postgres/0097_server_purge.sql' with { type: 'text' }

export interface Migration {
  name: string
  sql: string
}

export const migrations: readonly Migration[] = [
  { name: '0001_accounts_servers', sql: m0001 },
  { name: '0002_votes', sql: m0002 },
  { name: '0003_notifications', sql: m0003 },
  { name: '0004_jobs', sql: m0004 },
  { name: '0005_stats', sql: m0005 },
  { name: '0020_captcha', sql: m0020 },
  { name: '0040_delivery_series', sql: m0040 },
  { name: '0050_stats_median', sql: m0050 },
  { name: '0060_attempt_series', sql: m0060 },
  { name: '0070_listing_media', sql: m0070 },
  { name: '0075_server_ownership', sql: m0075 },
  { name: '0076_discord', sql: m0076 },
  { name: '0080_administration', sql: m0080 },
  { name: '0081_last_ping_round', sql: m0081 },
  { name: '0090_cluster', sql: m0090 },
  { name: '0093_listing_version', sql: m0093 },
  { name: '0094_drop_job_kind', sql: m0094 },
  { name: '0095_vote_address_by_server', sql: m0095 },
  { name: '0096_rate_limit_hit_locked', sql: m0096 },
  { name: '0097_server_purge', sql: m0097 },
]

export const postgresMigrations: readonly Migration[] = [
  { name: '0001_accounts_servers', sql: p0001 },
  { name: '0002_votes', sql: p0002 },
  { name: '0003_notifications', sql: p0003 },
  { name: '0004_jobs', sql: p0004 },
  { name: '0005_stats', sql: p0005 },
  { name: '0020_captcha', sql: p0020 },
  { name: '0040_delivery_series', sql: p0040 },
  { name: '0050_stats_median', sql: p0050 },
  { name: '0060_attempt_series', sql: p0060 },
  { name: '0070_listing_media', sql: p0070 },
  { name: '0075_server_ownership', sql: p0075 },
  { name: '0076_discord', sql: p0076 },
  { name: '0080_administration', sql: p0080 },
  { name: '0081_last_ping_round', sql: p0081 },
  { name: '0090_cluster', sql: p0090 },
  { name: '0093_listing_version', sql: p0093 },
  { name: '0094_drop_job_kind', sql: p0094 },
  { name: '0095_vote_address_by_server', sql: p0095 },
  { name: '0096_rate_limit_hit_locked', sql: p0096 },
  { name: '0097_server_purge', sql: p0097 },
]
