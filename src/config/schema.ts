// The one schema of votelist.toml: every key, its default, how it is checked and what it means.
// The configuration reference (docs/configuration.md) is written from this table.

import { LANGUAGES } from '../i18n/catalogs.ts'

export class ConfigError extends Error {}

export interface Field<T> {
  default: T
  doc: string
  parse(value: unknown, key: string): T
  // For the reference and the example file: what the value looks like ("integer 0–65535"), and
  // the default as written in TOML when that differs from JSON of `default` (durations).
  type?: string
  defaultText?: string
  // The value as written in votelist.toml, where JSON would not be (durations).
  format?(value: T): string
  // Never shown, not even to an administrator (passwords, tokens): masked in the dashboard.
  secret?: boolean
}

// The default as it is written in votelist.toml.
export const tomlDefault = (f: Field<unknown>): string => f.defaultText ?? JSON.stringify(f.default)

const fail = (key: string, why: string, value?: unknown): never => {
  throw new ConfigError(`${key}: ${why}${value === undefined ? '' : ` (got ${JSON.stringify(value)})`}`)
}

export function str(def: string, doc: string, opts: { min?: number; max?: number; pattern?: RegExp; hint?: string } = {}): Field<string> {
  const { min = 0, max = 1000, pattern, hint } = opts
  return {
    default: def, doc, type: 'string',
    parse(v, key) {
      if (typeof v !== 'string') return fail(key, 'must be a string', v)
      if (v.length < min || v.length > max) return fail(key, `must be ${min}–${max} characters long`, v)
      if (pattern && !pattern.test(v)) return fail(key, hint ?? `must match ${pattern}`, v)
      return v
    },
  }
}

export function int(def: number, doc: string, min: number, max: number): Field<number> {
  return {
    default: def, doc, type: `integer ${min}–${max}`,
    parse(v, key) {
      if (typeof v !== 'number' || !Number.isInteger(v)) return fail(key, 'must be an integer', v)
      if (v < min || v > max) return fail(key, `must be from ${min} to ${max}`, v)
      return v
    },
  }
}

export function bool(def: boolean, doc: string): Field<boolean> {
  return {
    default: def, doc, type: 'boolean',
    parse: (v, key) => (typeof v === 'boolean' ? v : fail(key, 'must be true or false', v)),
  }
}

export function oneOf<const T extends string>(values: readonly T[], def: NoInfer<T>, doc: string): Field<T> {
  return {
    default: def, doc, type: values.map((x) => `"${x}"`).join(' or '),
    parse: (v, key) => (values.includes(v as T) ? (v as T) : fail(key, `must be one of ${values.map((x) => `"${x}"`).join(', ')}`, v)),
  }
}

// An absolute http(s) URL without a trailing slash, or "" where `optional`.
// `root`: the URL of a site served at the root of its host (a trailing "/" alone is allowed): the
// pages, links and assets all use root paths, so a path would lead nowhere.
export function url(def: string, doc: string, optional = false, opts: { root?: boolean } = {}): Field<string> {
  const type = opts.root ? 'http(s) URL without a path' : 'http(s) URL'
  return {
    default: def, doc, type: optional ? `${type} or ""` : type,
    parse(v, key) {
      if (typeof v !== 'string') return fail(key, 'must be a string', v)
      if (v === '' && optional) return v
      let u: URL
      try { u = new URL(v) } catch { return fail(key, 'must be an absolute http:// or https:// URL', v) }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return fail(key, 'must be an http:// or https:// URL', v)
      if (u.search || u.hash) return fail(key, 'must not have a query or fragment', v)
      if (opts.root && u.pathname.replace(/\/+$/, '') !== '') {
        return fail(key, `must be the root of its host, such as ${JSON.stringify(u.origin)}: votelist serves every page from "/", not under a path`, v)
      }
      return v.replace(/\/+$/, '')
    },
  }
}

// A postgres:// (or postgresql://) URL naming a host and a database, or "" for none.
export function postgresUrl(doc: string): Field<string> {
  return {
    default: '', doc, type: 'postgres:// URL or ""',
    parse(v, key) {
      if (typeof v !== 'string') return fail(key, 'must be a string', v)
      if (v === '') return v
      let u: URL
      // The value is not echoed back: it may hold the password.
      try { u = new URL(v) } catch { return fail(key, 'must be a URL such as postgres://user:password@host:5432/database') }
      if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') return fail(key, `must be a postgres:// URL (got ${u.protocol}//…)`)
      if (!u.hostname) return fail(key, 'must name the database server: postgres://user:password@host:5432/database')
      if (u.pathname.length < 2) return fail(key, 'must name the database: postgres://user:password@host:5432/database')
      return v
    },
  }
}

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 }

// Durations are written "30s", "5m", "2h" and parsed into milliseconds.
export function parseDuration(v: unknown, key: string): number {
  const m = typeof v === 'string' ? /^(\d{1,7})(s|m|h)$/.exec(v) : null
  if (!m) return fail(key, 'must be a duration such as "30s", "5m" or "2h"', v)
  const ms = Number(m[1]) * units[m[2]]
  return ms > 0 ? ms : fail(key, 'must be longer than zero', v)
}

// Milliseconds as the duration string that means them, in the largest unit that divides them.
export function formatDuration(ms: number): string {
  const [unit, size] = Object.entries(units).reverse().find(([, size]) => ms % size === 0) ?? ['s', 1000]
  return `${ms / size}${unit}`
}

// The longest a timer can wait (a longer setTimeout fires at once) and the longest
// statement_timeout PostgreSQL accepts (it refuses the connection otherwise): 2^31 − 1 ms.
export const MAX_TIMER_MS = 2 ** 31 - 1

// `timer`: the value is used as a timeout, so it must fit MAX_TIMER_MS.
export function duration(def: string, doc: string, opts: { timer?: boolean } = {}): Field<number> {
  const max = opts.timer ? MAX_TIMER_MS : Infinity
  return {
    default: parseDuration(def, 'default'), doc, type: 'duration', defaultText: JSON.stringify(def),
    parse(v, key) {
      const ms = parseDuration(v, key)
      return ms <= max ? ms : fail(key, `must be at most "${Math.floor(max / 1000)}s" (about ${Math.floor(max / 3_600_000)} hours)`, v)
    },
    format: (ms) => JSON.stringify(formatDuration(ms)),
  }
}

export function durations(def: string[], doc: string, maxCount = 50): Field<number[]> {
  return {
    default: def.map((d) => parseDuration(d, 'default')), doc, type: 'list of durations',
    defaultText: JSON.stringify(def).replaceAll(',', ', '),
    format: (list) => `[${list.map((ms) => JSON.stringify(formatDuration(ms))).join(', ')}]`,
    parse(v, key) {
      if (!Array.isArray(v)) return fail(key, 'must be a list of durations', v)
      if (v.length > maxCount) return fail(key, `must have at most ${maxCount} entries`, v)
      return v.map((d, i) => parseDuration(d, `${key}[${i}]`))
    },
  }
}

export function strings(def: string[], doc: string, pattern: RegExp, hint: string): Field<string[]> {
  return {
    default: def, doc, type: 'list of strings', defaultText: JSON.stringify(def).replaceAll(',', ', '),
    parse(v, key) {
      if (!Array.isArray(v) || v.length === 0) return fail(key, 'must be a non-empty list of strings', v)
      v.forEach((s, i) => {
        if (typeof s !== 'string' || !pattern.test(s)) fail(`${key}[${i}]`, hint, s)
      })
      if (new Set(v).size !== v.length) return fail(key, 'must not repeat an entry', v)
      return v as string[]
    },
  }
}

// One of the languages the site has a catalog for (web/i18n/<code>.json): adding a catalog adds a
// value here, with no change to the schema.
export function language(def: string, doc: string): Field<string> {
  return {
    default: def, doc, type: LANGUAGES.map((x) => `"${x}"`).join(' or '),
    parse: (v, key) => (typeof v === 'string' && LANGUAGES.includes(v) ? v : fail(key, `must be one of ${LANGUAGES.map((x) => `"${x}"`).join(', ')} (the catalogs in web/i18n)`, v)),
  }
}

export const DEFAULT_MODES = [
  'survival', 'creative', 'skyblock', 'factions', 'pvp', 'minigames', 'prison', 'towny', 'smp',
  'anarchy', 'roleplay', 'modded', 'hardcore', 'bedwars', 'skywars', 'oneblock', 'economy', 'vanilla',
]

export const configSchema = {
  site: {
    base_url: url('', 'Public address of the site: links, vote URLs, badge URLs and the Origin check use it. https:// turns on Secure, __Host- session cookies. Empty (not set): links use http://localhost (or http.host when it names one address) on http.port, and the site accepts its pages from localhost, 127.0.0.1 and [::1] on that port; set it on any site others reach. The site is served at the root of its host: a path (https://list.example/votes) is refused.', true, { root: true }),
    name: str('My Server List', 'Name of the site, shown in page titles and headers.', { min: 1, max: 100 }),
    service_name: str('MyServerList', 'Service name sent with every Votifier vote; owners register their v2 token under it.', {
      min: 1, max: 64, pattern: /^[A-Za-z0-9_.-]+$/, hint: 'must use only letters, digits, "_", "." and "-"',
    }),
    language: language('en', 'Language of the site for a visitor who has not chosen one with the switcher and whose browser asks for none the site has (Accept-Language). The badge uses it unless its URL says ?lang=; the Discord messages of votes use it. Pages are also served in every other language of the site: ?lang=<code> in the address, or the switcher.'),
    ipv4_url: url('', 'Optional base URL of this site reachable over IPv4 only (dual-stack vote capture), at the root of its host like site.base_url. Empty: off.', true, { root: true }),
    ipv6_url: url('', 'Optional base URL of this site reachable over IPv6 only (dual-stack vote capture), at the root of its host like site.base_url. Empty: off.', true, { root: true }),
  },
  http: {
    host: str('0.0.0.0', 'Address to listen on.', { min: 1, max: 255 }),
    port: int(8080, 'Port to listen on; 0 picks a free port (logged at start).', 0, 65535),
    trust_proxy: bool(false, 'Behind a reverse proxy: take the client address from the right-most X-Forwarded-For entry.'),
    max_body_bytes: int(65536, 'Largest request body accepted, in bytes, checked before the body is read (routes that need more, such as uploads, set their own limit); a larger one gets 413 PAYLOAD_TOO_LARGE.', 4096, 1024 * 1024 * 1024),
  },
  database: {
    path: str('data/votelist.db', 'SQLite database file, relative to the config file\'s folder (or to the working folder without a config file). Not used when `database.url` is set.', { min: 1 }),
    url: postgresUrl('PostgreSQL instead of the SQLite file: `postgres://user:password@host:5432/database` (characters such as `@`, `:` or `/` in the password percent-encoded; `?sslmode=require` for TLS). Empty: SQLite. Setting it together with `database.path` is an error. The password is never logged.'),
    pool_size: int(10, 'PostgreSQL only: connections this process keeps open to the database at most (transactions wait for a free one).', 1, 1000),
    statement_timeout: duration('30s', 'PostgreSQL only: longest a statement may run before the database cancels it (and the request or job fails instead of hanging).', { timer: true }),
  },
  jobs: {
    lease: duration('2m', 'How long a running job (a delivery attempt) is reserved for the process running it. Must exceed the longest attempt (checked at start: the webhook timeout, or the Votifier connect timeout plus twice its read timeout, plus a minute). On PostgreSQL a job whose process died runs again once its lease ends; on SQLite at the next start.'),
  },
  votes: {
    interval_minutes: int(120, 'Minutes between two votes for the same server, per pseudo and per voter address.', 1, 10080),
    captcha: oneOf(['pow', 'off'], 'pow', '"pow": self-hosted proof-of-work captcha on the vote form; "off": none (trusted setups, tests).'),
    captcha_ttl: duration('10m', 'How long a captcha challenge stays valid: it must be solved and the vote sent within this time. Each solution is accepted once.'),
    captcha_difficulty: int(5000, 'Proof-of-work size: the browser derives between half this number and this number of PBKDF2-SHA-256 keys (1,000 iterations each), so solving time grows linearly with it.', 1, 10_000_000),
  },
  stats: {
    ping_interval_seconds: int(300, 'Seconds between two ping rounds over every listed server.', 1, 86400),
    ping_timeout_seconds: int(5, 'Seconds one ping attempt may take (connect, answer) before it counts as down.', 1, 60),
    ping_concurrency: int(64, 'Pings in flight at once during a round.', 1, 1024),
    raw_retention_days: int(35, 'Days raw ping samples are kept (at least 30, so every range up to 30d is exact); hourly and daily rollups are kept forever.', 30, 3650),
  },
  deliveries: {
    retry_delays: durations(['1m', '5m', '15m', '30m', '1h', '2h', '5h'], 'Delays before each retry of a failed Votifier or webhook delivery, after the first attempt.'),
    votifier_connect_timeout: duration('5s', 'Longest wait for the connection to a Votifier listener (the DNS lookup of its host and the TCP handshake).', { timer: true }),
    votifier_read_timeout: duration('5s', 'Longest wait for the Votifier greeting, and again for the v2 answer after the vote is sent.', { timer: true }),
    webhook_timeout: duration('10s', 'Longest wait for a webhook receiver\'s (or Discord\'s) answer (DNS lookup and connection included); a later answer counts as a failure.', { timer: true }),
    concurrency: int(32, 'Delivery attempts in flight at once, over every server (the job queue itself runs at most 32 jobs at once).', 1, 32),
    per_target_concurrency: int(4, 'Delivery attempts in flight at once to one target (Votifier host:port, webhook origin, or Discord webhook), so one slow server never holds every slot.', 1, 1000),
  },
  network: {
    allow_private_targets: bool(false, 'Allow webhook, Votifier and ping targets on loopback, private, link-local, CGNAT, multicast or unspecified addresses, plain http:// webhooks, and Discord webhook URLs that are not Discord\'s (local and test installs). Checked at every attempt too: turned off, the targets it let through fail (retried, then redeliverable) until their owners change them.'),
  },
  limits: {
    keyed_per_minute: int(600, 'Requests a minute per API key on the verification API.', 1, 1_000_000),
    public_per_minute: int(120, 'Requests a minute per client address on the public API.', 1, 1_000_000),
    vote_attempts_per_minute: int(10, 'Vote submissions a minute per client address (an IPv6 client counts per /64), whatever their outcome.', 1, 1_000_000),
    test_votes_per_minute: int(10, 'Test votes a minute per server (the dashboard\'s Test button, `POST …/test`); more get 429.', 1, 1_000_000),
    verifications_per_minute: int(10, 'Ownership checks a minute per server (the dashboard\'s Verify button, `POST …/verification`, each pings the server); more get 429.', 1, 1_000_000),
  },
  accounts: {
    open_registration: bool(true, 'Let anyone sign up as a server owner. The first account (the admin) can always be created.'),
    login_attempts_per_minute: int(10, 'Login and sign-up attempts a minute per client address (IPv6: per /64); more get 429.', 1, 10_000),
    failed_logins_per_account: int(10, 'Failed logins per account in 15 minutes; past it, logins to that account get 429 until the oldest failure is 15 minutes old, except from a browser that logged in to it before (it has a count of its own).', 1, 10_000),
    hash_concurrency: int(4, 'Password hashes (argon2id, ~64 MiB each) computed at once; up to 8× as many requests wait, more get 429.', 1, 256),
  },
  listing: {
    require_verification: bool(false, 'Keep servers whose owner has not proved they run them (the token in the MOTD) off the ranking, their pages, their vote pages and the public API.'),
  },
  servers: {
    modes: strings(DEFAULT_MODES, 'Game modes a server can list and the public filters offer.', /^[a-z0-9-]{1,32}$/, 'must be 1–32 of a-z, 0-9 and "-"'),
  },
  log: {
    level: oneOf(['debug', 'info', 'warn', 'error'], 'info', 'Least severe log level written to standard error. The lines that say where the site listens and that it stopped are written at every level.'),
  },
} as const

type Schema = typeof configSchema
export type ConfigValues = {
  readonly [S in keyof Schema]: { readonly [K in keyof Schema[S]]: Schema[S][K] extends Field<infer T> ? T : never }
}
