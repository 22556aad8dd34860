import type { SQL } from 'bun'
import { StorageError } from './storage-error.ts'

// PostgreSQL through Bun's built-in client. Every query of votelist goes through rows(), row()
// or exec() below with a constant text and $1… parameters (each text is prepared once per
// connection by the client).

// The pool, a reserved connection or a transaction: the same interface.
export type Pg = SQL

export interface PostgresOptions {
  url: string
  poolSize: number
  statementTimeoutMs: number
}

// The pool. Each connection is opened with the statement timeout set, so a statement that runs
// away is cancelled by the server; the application name shows the site in pg_stat_activity.
export function connectPostgres(o: PostgresOptions): Pg {
  // Bun.SQL is read here, not imported: Bun loads its client when the property is first read, and
  // a site on SQLite never needs it.
  return new Bun.SQL({
    url: o.url,
    max: o.poolSize,
    connection: { statement_timeout: o.statementTimeoutMs, application_name: 'votelist' },
  })
}

// Type OIDs of int8 and numeric: the client gives them as strings (they may pass 2^53). votelist's
// are milliseconds, ids, counts and sums, all far below 2^53, so they are numbers here.
const INT8 = 20
const NUMERIC = 1700

type Result = Record<string, unknown>[] & { columns?: { name: string; type: number }[] | null; affectedRows?: number }

function numbered<T>(result: Result): T[] {
  const wide = (result.columns ?? []).filter((c) => c.type === INT8 || c.type === NUMERIC).map((c) => c.name)
  if (wide.length) {
    for (const r of result) for (const name of wide) if (r[name] !== null) r[name] = Number(r[name])
  }
  return result as T[]
}

// PostgreSQL text cannot hold U+0000, which SQLite's holds and which anyone can send (%00 in a
// query string, "\u0000" in a JSON body, a delivery target's answer quoted in an error): a
// statement given it fails ("invalid byte sequence for encoding UTF8: 0x00"). It is sent as
// U+FFFD instead, the character a browser shows for it, wherever it is written or looked for, so
// that the same request answers as on SQLite and a value is found again by the value it was
// written with.
const NUL = '\0'
const REPLACEMENT = '\uFFFD'
const holdsNul = (v: unknown): boolean => (typeof v === 'string' ? v.includes(NUL) : Array.isArray(v) && v.some(holdsNul))
const withoutNul = (v: unknown): unknown => (typeof v === 'string' ? v.replaceAll(NUL, REPLACEMENT) : Array.isArray(v) ? v.map(withoutNul) : v)
export const sendable = (params: unknown[]): unknown[] => (params.some(holdsNul) ? params.map(withoutNul) : params)

// A value as the JSON text a statement reads with ::jsonb, which refuses "\u0000" as well.
export const jsonParam = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? withoutNul(v) : v))

export async function rows<T>(pg: Pg, text: string, params: unknown[] = []): Promise<T[]> {
  return numbered<T>((await pg.unsafe(text, sendable(params))) as Result)
}

export async function row<T>(pg: Pg, text: string, params: unknown[] = []): Promise<T | null> {
  return (await rows<T>(pg, text, params))[0] ?? null
}

// Takes the transaction-scoped advisory lock `key`, in a statement of its own: each later
// statement of the transaction reads with a snapshot taken after it is held, so it sees what the
// transaction that held it before committed (under READ COMMITTED, checks made before an insert
// otherwise miss another transaction's uncommitted row).
export async function lockUntilCommit(pg: Pg, key: number): Promise<void> {
  await exec(pg, 'SELECT pg_advisory_xact_lock($1, 0)', [key])
}

// Runs a statement; answers how many rows it wrote.
export async function exec(pg: Pg, text: string, params: unknown[] = []): Promise<number> {
  return ((await pg.unsafe(text, sendable(params))) as Result).affectedRows ?? 0
}

// A connection that cannot be made, said in one sentence with the database's address (never its
// password): refused or unreachable is an I/O fault, a refused login a permission one. `setting`:
// where the admin gave that address, to correct it there (`db copy --to` names its option).
export function postgresFault(e: unknown, label: string, setting = 'database.url'): unknown {
  const code = (e as { code?: unknown }).code
  const errno = (e as { errno?: unknown }).errno
  const message = (e as Error).message
  if (errno === '28P01' || errno === '28000' || code === 'ERR_POSTGRES_AUTHENTICATION_FAILED_PBKDF2' || code === 'ERR_POSTGRES_PASSWORD_REQUIRED') {
    return new StorageError(`PostgreSQL refused the login to ${label}: ${message} (${setting})`, 'permission')
  }
  if (errno === '3D000') return new StorageError(`the database of ${label} does not exist: create it first (${setting})`, 'permission')
  if (typeof code === 'string' && /^ERR_POSTGRES_(CONNECTION|CONNECT|SOCKET|TLS|UNSUPPORTED_AUTH)/.test(code)) {
    return new StorageError(`cannot connect to PostgreSQL at ${label}: ${message} (${setting})`, 'io')
  }
  if (typeof code === 'string' && /^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET)$/.test(code)) {
    return new StorageError(`cannot connect to PostgreSQL at ${label}: ${message} (${setting})`, 'io')
  }
  return e
}
