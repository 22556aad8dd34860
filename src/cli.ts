import { userJson } from './accounts/schema.ts'
import { checkEmail, checkPassword, createUser } from './accounts/service.ts'
import { parseFlags, type Flags } from './cli-args.ts'
import { health } from './cli-health.ts'
import { readPasswordLine } from './cli-password.ts'
import { USAGE } from './cli-usage.ts'
import { databaseLabel, loadConfig, type Config } from './config/load.ts'
import { exampleToml } from './config/reference.ts'
import { ConfigError, postgresUrl } from './config/schema.ts'
import { BackupError, BackupInterrupted, backupDatabase } from './db/backup.ts'
import { CopyError, copySqliteToPostgres } from './db/copy.ts'
import { acquireInstanceLock, InstanceLockError } from './db/instance-lock.ts'
import { MigrationError } from './db/migrate.ts'
import { migrations } from './db/migrations.ts'
import { DatabaseOwnerError, refuseForeignOwner } from './db/owner-guard.ts'
import { StorageError } from './db/storage-error.ts'
import { resolve } from './file-path.ts'
import { ApiError } from './http/errors.ts'
import { iso } from './http/schema.ts'
import { createKey } from './keys/service.ts'
import { nodeFs } from './lazy-modules.ts'
import { createLogger } from './log.ts'
import { systemLookup, type Lookup } from './net/guard.ts'
import { openStore, type StoreRuntime } from './runtime.ts'
import { serveSite, StartError } from './serve.ts'
import type { Edition } from './servers/schema.ts'
import { createServer } from './servers/service.ts'
import { createSite } from './site.ts'
import { VERSION } from './version.ts'

// Exit codes scripts can rely on (74, 77 and 78 as in sysexits.h).
export const EXIT = { ok: 0, failure: 1, usage: 2, ioError: 74, noPermission: 77, config: 78 } as const

export interface Io {
  out(line: string): void
  err(line: string): void
  cwd: string
  // Resolves when the process is asked to stop (SIGTERM/SIGINT/SIGHUP); injected by tests.
  stopSignal?: Promise<unknown>
  // Name resolution for the save-time host check (server add); injected by tests.
  lookup?: Lookup
}

class UsageError extends Error {}

function parse(args: string[], options: Flags, positionals = 0) {
  let parsed
  try {
    parsed = parseFlags(args, { config: { type: 'string' }, ...options }, positionals > 0)
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  if (parsed.positionals.length > positionals) throw new UsageError(`unexpected argument "${parsed.positionals[positionals]}"`)
  if (parsed.values.config === '') throw new UsageError('--config must not be empty: give the configuration file\'s path') // `--config=$UNSET`
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals }
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const v = values[name]
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`)
  return v
}

function integer(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text)) throw new UsageError(`--${name} must be an integer`)
  return Number(text)
}

const config = (values: Record<string, unknown>, io: Io): Config => loadConfig(values.config as string | undefined, io.cwd)

// The configuration of a command run beside the site that opens its database. (`serve` is the
// site itself: whoever runs it owns the files, as in a container running as root.)
function dbConfig(values: Record<string, unknown>, io: Io): Config {
  const cfg = config(values, io)
  if (!cfg.database.url) refuseForeignOwner(cfg.database.path)
  return cfg
}

// The configuration of a command that only makes sense on an existing site (its SQLite file
// there): a new database would be created and migrated for nothing, often by a forgotten --config.
function existingDbConfig(values: Record<string, unknown>, io: Io): Config {
  const cfg = dbConfig(values, io)
  if (cfg.database.url || nodeFs().existsSync(cfg.database.path)) return cfg
  const why = cfg.source === null ? `: ${builtInDefault(io)}` : ''
  throw new ApiError(404, 'NOT_FOUND', `no database at ${cfg.database.path}${why}`)
}

const builtInDefault = (io: Io) => `no --config was given and there is no ./votelist.toml in ${io.cwd}, so the built-in default was used; give --config FILE`

// Opens the store of the configured site for one command, quietly, and closes it afterwards.
async function withStore<T>(values: Record<string, unknown>, io: Io, fn: (rt: StoreRuntime) => Promise<T>, existing = false): Promise<T> {
  const rt = await openStore(existing ? existingDbConfig(values, io) : dbConfig(values, io), { log: createLogger('error'), besideSite: true })
  try {
    return await fn(rt)
  } finally {
    await rt.store.close()
  }
}

const commands: Record<string, (args: string[], io: Io) => Promise<number>> = {
  async serve(args, io) {
    const { values } = parse(args, {})
    const cfg = config(values, io)
    // Taken before the store is opened: a second serve (a newer version tried by hand beside
    // the service) must not migrate the database of the one that runs, then stop at the lock.
    const lock = cfg.database.url ? null : acquireInstanceLock(cfg.database.path)
    let site
    try {
      site = createSite(await openStore(cfg))
    } catch (e) {
      lock?.abandon()
      throw e
    }
    await serveSite(site, { stopSignal: io.stopSignal, lock })
    return EXIT.ok
  },

  async migrate(args, io) {
    const { values } = parse(args, {})
    const applied = await withStore(values, io, async (rt) => rt.migrated)
    io.out(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date')
    return EXIT.ok
  },

  async user(args, io) {
    if (args[0] !== 'add') throw new UsageError('usage: votelist user add --email E --password P [--admin]')
    const { values } = parse(args.slice(1), { email: { type: 'string' }, password: { type: 'string' }, admin: { type: 'boolean' } })
    const email = checkEmail(required(values, 'email'))
    let password = required(values, 'password')
    if (password === '-') password = await readPasswordLine(`Password for ${email}: `)
    // Refused before the database is opened (a first account creates it).
    checkPassword(password)
    // A database made on the built-in default is most often a forgotten --config: the account
    // would land in a new, empty site beside the real one. Allowed (the quick start), but said.
    let created: string | null = null
    const user = await withStore(values, io, (rt) => {
      if (rt.config.source === null && !rt.config.database.url && rt.migrated.length === migrations.length) created = rt.config.database.path
      return createUser(rt, { email, password, admin: values.admin === true })
    })
    // The account as the API gives it: times in ISO 8601, like everything a command prints.
    io.out(JSON.stringify(userJson(user)))
    if (created) io.err(`votelist user: created a new database at ${created}: ${builtInDefault(io)} to add accounts to an existing site`)
    return EXIT.ok
  },

  async server(args, io) {
    if (args[0] !== 'add') throw new UsageError('usage: votelist server add --owner E --name N --host H [--port P] [--edition java|bedrock] [--slug S]')
    const { values } = parse(args.slice(1), {
      owner: { type: 'string' }, name: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' },
      edition: { type: 'string' }, slug: { type: 'string' },
    })
    const owner = required(values, 'owner').trim() // as user add and the login read an address
    const input = {
      name: required(values, 'name'), host: required(values, 'host'), port: integer(values.port as string | undefined, 'port'),
      edition: values.edition as Edition | undefined, slug: values.slug as string | undefined,
    }
    const { num: _num, ...server } = await withStore(values, io, async (rt) => {
      const user = await rt.store.users.byEmail(owner)
      if (!user) throw new ApiError(404, 'NOT_FOUND', `no account with the e-mail address ${owner}`)
      return createServer({ ...rt, lookup: io.lookup ?? systemLookup }, user.id, input)
    }, true)
    io.out(JSON.stringify({ ...server, createdAt: iso(server.createdAt), updatedAt: iso(server.updatedAt) }))
    return EXIT.ok
  },

  async key(args, io) {
    if (args[0] !== 'create') throw new UsageError('usage: votelist key create --server SLUG [--name N]')
    const { values } = parse(args.slice(1), { server: { type: 'string' }, name: { type: 'string' } })
    const slug = required(values, 'server')
    const created = await withStore(values, io, async (rt) => {
      const server = await rt.store.servers.bySlug(slug)
      if (!server) throw new ApiError(404, 'NOT_FOUND', `no server with the slug ${slug}`)
      return createKey(rt, server.id, (values.name as string | undefined) ?? 'command line')
    }, true)
    io.out(created.key)
    return EXIT.ok
  },

  async backup(args, io) {
    const { values, positionals } = parse(args, {}, 1)
    if (!positionals[0]) throw new UsageError('usage: votelist backup FILE')
    const target = resolve(io.cwd, positionals[0])
    if (nodeFs().existsSync(target)) throw new ApiError(409, 'CONFLICT', `${target} already exists; choose a new file`)
    const cfg = existingDbConfig(values, io)
    if (cfg.database.url) {
      throw new ApiError(409, 'CONFLICT', `the site's database is PostgreSQL (${databaseLabel(cfg)}): back it up with its own tools, e.g. pg_dump --format=custom --file=${positionals[0]} followed by the database URL, or the server's continuous archiving; votelist backup copies SQLite files only`)
    }
    await backupDatabase(cfg.database.path, target)
    io.out(target)
    return EXIT.ok
  },

  async db(args, io) {
    if (args[0] !== 'copy') throw new UsageError('usage: votelist db copy --to postgres://user:password@host:5432/database')
    const { values } = parse(args.slice(1), { to: { type: 'string' } })
    let to = required(values, 'to')
    // `--to -`: from standard input (echo off at a terminal), its password out of ps and history.
    if (to === '-') to = (await readPasswordLine('PostgreSQL URL (postgres://user:password@host:5432/database): ')).trim()
    try {
      postgresUrl('').parse(to, '--to')
    } catch (e) {
      throw e instanceof ConfigError ? new UsageError(e.message) : e
    }
    const cfg = existingDbConfig(values, io)
    if (cfg.database.url) throw new ApiError(409, 'CONFLICT', `the site's database is already PostgreSQL (${databaseLabel(cfg)}): db copy moves a SQLite site`)
    const label = databaseLabel({ database: { ...cfg.database, url: to } })
    const copied = await copySqliteToPostgres(cfg.database.path, to, label)
    const width = Math.max(...copied.map((c) => c.table.length))
    for (const c of copied) io.out(`${c.table.padEnd(width)}  ${c.rows}`)
    io.out(`copied ${copied.reduce((n, c) => n + c.rows, 0)} rows of ${copied.length} tables from ${cfg.database.path} to ${label}; every table holds as many rows as the SQLite file`)
    return EXIT.ok
  },

  async config(args, io) {
    const usage = 'usage: votelist config check [--config FILE] | votelist config example [--database PATH]'
    if (args[0] === 'check') {
      const { values } = parse(args.slice(1), {})
      const cfg = config(values, io)
      io.out(`configuration is valid (${cfg.source ?? 'built-in defaults'}); database: ${databaseLabel(cfg)}`)
      return EXIT.ok
    }
    if (args[0] === 'example') {
      const { values } = parse(args.slice(1), { database: { type: 'string' } })
      const database = values.database as string | undefined
      if (database === '') throw new UsageError('--database must not be empty')
      io.out(exampleToml(database === undefined ? {} : { 'database.path': JSON.stringify(database) }).trimEnd())
      return EXIT.ok
    }
    throw new UsageError(usage)
  },

  async version(args, io) {
    parse(args, {})
    io.out(VERSION)
    return EXIT.ok
  },

  async help(_args, io) { io.out(USAGE); return EXIT.ok },

  async health(args, io) { return health(config(parse(args, {}).values, io), io) },
}

// `votelist --config FILE COMMAND …`, the order many tools take their global options in, is read
// as `votelist COMMAND … --config FILE`; without a command after it, the option is serve's.
function commandFirst(argv: string[]): string[] {
  const option = argv[0] === '--config' ? 2 : argv[0]?.startsWith('--config=') ? 1 : 0
  if (!option || argv.length <= option || !Object.hasOwn(commands, argv[option])) return argv
  return [argv[option], ...argv.slice(option + 1), ...argv.slice(0, option)]
}

export async function runCli(given: string[], io: Io): Promise<number> {
  const argv = commandFirst(given)
  const [first, ...rest] = argv
  const isFlag = first === undefined || first.startsWith('-')
  const name = first === '--help' || first === '-h' ? 'help' : first === '--version' ? 'version' : isFlag ? 'serve' : first
  const args = isFlag && name === 'serve' ? argv : rest
  // Own properties only: "votelist constructor" or "votelist toString" is an unknown command,
  // not a member of Object.prototype.
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (!command) {
    io.err(`votelist: unknown command "${name}"\n\n${USAGE}`)
    return EXIT.usage
  }
  try {
    return await command(args, io)
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`votelist ${name}: ${e.message}\nRun "votelist help" for usage.`)
      return EXIT.usage
    }
    if (e instanceof ConfigError) {
      io.err(`votelist: configuration error: ${e.message}`)
      return EXIT.config
    }
    // A refused argument value is the caller's mistake, like a bad flag: scripts see 2.
    if (e instanceof ApiError && e.status === 400) {
      io.err(`votelist ${name}: ${e.message}`)
      return EXIT.usage
    }
    if (e instanceof StartError && e.permission) {
      io.err(`votelist ${name}: ${e.message}`)
      return EXIT.noPermission
    }
    if (e instanceof BackupInterrupted) {
      io.err(`votelist ${name}: ${e.message}`)
      return e.exitCode
    }
    if (e instanceof StorageError) {
      io.err(`votelist ${name}: ${e.message}`)
      return e.kind === 'io' ? EXIT.ioError : EXIT.noPermission
    }
    if (e instanceof ApiError || e instanceof MigrationError || e instanceof StartError || e instanceof InstanceLockError || e instanceof DatabaseOwnerError || e instanceof CopyError || e instanceof BackupError) {
      io.err(`votelist ${name}: ${e.message}`)
      return EXIT.failure
    }
    io.err(`votelist ${name}: ${(e as Error).stack ?? e}`)
    return EXIT.failure
  }
}
