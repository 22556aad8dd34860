import { systemClock, type Clock } from './clock.ts'
import { databaseLabel, type Config } from './config/load.ts'
import { createSiteUrl, type SiteUrl } from './http/site-url.ts'
import { createLogger, type Logger } from './log.ts'
import { listingPolicy } from './servers/service.ts'
import { openSqliteStore, type Store } from './store.ts'

// What every command works with: the configuration, the time, the log, the site's secret and
// the store (the database, migrated, behind its repositories). Opening it starts nothing: a
// command line tool opens it, does its work and closes the store.
export interface StoreRuntime<S extends Store = Store> {
  config: Config
  clock: Clock
  log: Logger
  // Signs sessions, captcha challenges and dual-stack tokens; created by the first migration.
  secret: Uint8Array
  // The site's own address: links, and the origins its pages come from.
  siteUrl: SiteUrl
  store: S
  // The migrations applied when the store was opened.
  migrated: string[]
}

export interface RuntimeOptions {
  clock?: Clock
  log?: Logger
  // A command run beside the site (not serve): it refuses to migrate a database a serve is using.
  besideSite?: boolean
}

// The backend is the configuration's: PostgreSQL when database.url is set, else the SQLite file.
// The PostgreSQL half is imported only then: a SQLite site never loads it.
export async function openStore(config: Config, opts: RuntimeOptions = {}): Promise<StoreRuntime> {
  const clock = opts.clock ?? systemClock
  const { url, path, pool_size: poolSize, statement_timeout: statementTimeoutMs } = config.database
  const policy = listingPolicy(config)
  const { store, migrated } = url
    ? await (await import('./store-postgres.ts')).openPostgresStore({ url, poolSize, statementTimeoutMs, label: databaseLabel(config) }, clock.now(), policy)
    : openSqliteStore(path, clock.now(), policy, opts.besideSite)
  try {
    return storeRuntime({ config, store, migrated, secret: await store.settings.get('secret') }, opts)
  } catch (e) {
    await store.close()
    throw e
  }
}

// The runtime of an opened store, given its secret (hex, as the settings keep it).
export function storeRuntime<S extends Store>(opened: { config: Config; store: S; migrated: string[]; secret: string | null }, opts: RuntimeOptions = {}): StoreRuntime<S> {
  const { config, store, migrated, secret } = opened
  if (!secret) throw new Error('the database has no site secret: its first migration did not run')
  return {
    config,
    clock: opts.clock ?? systemClock,
    log: opts.log ?? createLogger(config.log.level),
    secret: Buffer.from(secret, 'hex'),
    siteUrl: createSiteUrl(config),
    store,
    migrated,
  }
}
