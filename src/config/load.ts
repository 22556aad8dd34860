import { runAs } from '../db/owner-guard.ts'
import { dirname, isAbsolute, join, resolve } from '../file-path.ts'
import { nodeFs } from '../lazy-modules.ts'
import { ConfigError, configSchema, type ConfigValues, type Field } from './schema.ts'

export interface Config extends ConfigValues {
  // Where the values came from: the file read, or null for built-in defaults.
  readonly source: string | null
  // The keys the file sets ("site.name"); every other key has its built-in default.
  readonly given: readonly string[]
}

type Raw = Record<string, unknown>
type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] }
export type ConfigInput = DeepPartial<Record<keyof ConfigValues, Record<string, unknown>>>

const isTable = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v)

// Validates raw TOML values against the schema. `baseDir` anchors relative paths.
// Names are matched as own properties only: `in` would also find Object.prototype's members, so
// `constructor`, `toString` or `__proto__` (Bun's TOML parser gives those as own keys) would
// pass as known and be silently ignored instead of stopping the start like any unknown key.
export function parseConfig(raw: unknown, baseDir: string, source: string | null = null): Config {
  if (!isTable(raw)) throw new ConfigError('the configuration must be a TOML table')
  const sections = configSchema as unknown as Record<string, Record<string, Field<unknown>>>
  for (const name of Object.keys(raw)) {
    if (!Object.hasOwn(sections, name)) throw new ConfigError(`${name}: unknown section (known: ${Object.keys(sections).join(', ')})`)
  }
  const out: Record<string, Record<string, unknown>> = {}
  const set: string[] = []
  for (const [name, fields] of Object.entries(sections)) {
    const given = Object.hasOwn(raw, name) ? raw[name] : {}
    if (!isTable(given)) throw new ConfigError(`${name}: must be a table ([${name}])`)
    for (const key of Object.keys(given)) {
      if (!Object.hasOwn(fields, key)) throw new ConfigError(`${name}.${key}: unknown key (known in [${name}]: ${Object.keys(fields).join(', ')})`)
      set.push(`${name}.${key}`)
    }
    const section: Record<string, unknown> = {}
    for (const [key, field] of Object.entries(fields)) {
      section[key] = Object.hasOwn(given, key) ? field.parse(given[key], `${name}.${key}`) : field.default
    }
    out[name] = Object.freeze(section)
  }
  const db = out.database as { path: string; url: string }
  const givenDb = (Object.hasOwn(raw, 'database') ? raw.database : {}) as Raw
  if (db.url && Object.hasOwn(givenDb, 'path')) {
    throw new ConfigError('database.path and database.url are both set: database.path is the SQLite file, database.url a PostgreSQL database; keep the one this site uses')
  }
  out.database = Object.freeze({ ...db, path: isAbsolute(db.path) ? db.path : resolve(baseDir, db.path) })
  checkLease(out as unknown as ConfigValues)
  return Object.freeze({ ...out, source, given: Object.freeze(set) }) as unknown as Config
}

// A job's lease must outlast its longest run, or a second runner could take a job still running.
// The longest job is a delivery attempt: bounded by the channel's timeouts, plus a minute for the
// name resolution and the database writes around it.
export function longestAttemptMs(c: Pick<ConfigValues, 'deliveries'>): number {
  const d = c.deliveries
  return Math.max(d.webhook_timeout, d.votifier_connect_timeout + 2 * d.votifier_read_timeout) + 60_000
}

function checkLease(c: ConfigValues) {
  const needed = longestAttemptMs(c)
  if (c.jobs.lease <= needed) {
    throw new ConfigError(`jobs.lease must be longer than the longest delivery attempt (${needed / 1000} s: the longer of deliveries.webhook_timeout and deliveries.votifier_connect_timeout + 2 × deliveries.votifier_read_timeout, plus 60 s)`)
  }
}

// Where the data is, fit for a log line: the SQLite file, or the PostgreSQL URL without its
// password.
export function databaseLabel(c: Pick<ConfigValues, 'database'>): string {
  if (!c.database.url) return c.database.path
  const u = new URL(c.database.url)
  u.password = ''
  u.searchParams.delete('password')
  return u.href
}

// `--config FILE` if given (it must exist), else ./votelist.toml if present, else the defaults.
// What the command line, the site and the tests all read.
export function loadConfig(file: string | undefined, cwd = process.cwd()): Config {
  const path = configPath(file, cwd)
  return configFrom(fileText(path), path, file, cwd)
}

// A file's text, or null if there is no file there (nor a folder in its place). Mapped into
// memory and decoded at once: `serve` reads its config without loading node:fs (4.5 ms of a
// start, src/lazy-modules.ts) or starting Bun's thread pool, which a read through Bun.file() was
// the process's first use of (3.3-4.4 ms in a small compiled program against 0.3 for the map).
// What cannot be mapped (an empty file, a pipe such as --config <(...) or a named pipe, a file
// under /proc) is read through node:fs; a pipe is known before the map is tried (Bun.file's size,
// a stat that opens nothing, is Infinity for one): the map's own open of a named pipe paired with
// its writer and closed at once, so a writer that wrote after that close was killed by SIGPIPE, and
// the read after it waited for good for a writer that was gone.
// A file the user votelist runs as may not read is a configuration error (exit 78, which systemd
// does not restart after): only the admin can fix it, by its owner or mode.
function fileText(path: string): string | null {
  const absent = (e: NodeJS.ErrnoException) => e.code === 'ENOENT' || e.code === 'ENOTDIR' || e.code === 'EISDIR'
  if (Bun.file(path).size !== Infinity) {
    try {
      return new TextDecoder().decode(Bun.mmap(path))
    } catch (e) {
      if (absent(e as NodeJS.ErrnoException)) return null
    }
  }
  try {
    return nodeFs().readFileSync(path, 'utf8')
  } catch (e) {
    if (absent(e as NodeJS.ErrnoException)) return null
    throw unreadable(e as NodeJS.ErrnoException, path)
  }
}

function isFolder(path: string): boolean {
  try {
    return nodeFs().statSync(path).isDirectory()
  } catch {
    return false
  }
}

function unreadable(e: NodeJS.ErrnoException, path: string): Error {
  if (e.code !== 'EACCES' && e.code !== 'EPERM') return e
  return new ConfigError(`${path}: cannot read the file: permission denied for ${runAs()}; make it readable by that user (install.sh makes it root:votelist, mode 640)`)
}

const configPath = (file: string | undefined, cwd: string) => (file !== undefined ? resolve(cwd, file) : resolve(cwd, 'votelist.toml'))

// The configuration from the file's text (null: there is no such file).
function configFrom(text: string | null, path: string, file: string | undefined, cwd: string): Config {
  if (text === null) {
    if (file !== undefined) {
      // A folder where the file was named (--config /etc/votelist): say so, with the file it may mean.
      if (isFolder(path)) {
        throw new ConfigError(`${file}: is a folder, not a config file; give the file's own path (such as ${join(file, 'votelist.toml')})`)
      }
      throw new ConfigError(`${file}: config file not found`)
    }
    return parseConfig({}, cwd, null)
  }
  let raw: unknown
  try {
    raw = Bun.TOML.parse(text)
  } catch (e) {
    throw new ConfigError(`${path}: not valid TOML: ${(e as Error).message}`)
  }
  try {
    return parseConfig(raw, dirname(path), path)
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(`${path}: ${e.message}`)
    throw e
  }
}
