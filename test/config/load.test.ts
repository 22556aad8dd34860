import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { databaseLabel, loadConfig, parseConfig, type Config } from '../../src/config/load.ts'
import { ConfigError } from '../../src/config/schema.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'

afterAll(cleanupTemp)

const fromToml = (toml: string) => {
  const dir = tempDir()
  writeFileSync(join(dir, 'votelist.toml'), toml)
  return { dir, load: () => loadConfig(undefined, dir) }
}

describe('configuration', () => {
  test('no file: built-in defaults, database under ./data of the working folder', () => {
    const dir = tempDir()
    const c = loadConfig(undefined, dir)
    expect(c.source).toBeNull()
    expect(c.database.path).toBe(join(dir, 'data/votelist.db'))
    expect(c.http.port).toBe(8080)
    expect(c.votes.interval_minutes).toBe(120)
    expect(c.deliveries.retry_delays).toEqual([60e3, 300e3, 900e3, 1800e3, 3600e3, 7200e3, 18000e3])
    expect(c.limits).toMatchObject({ keyed_per_minute: 600, public_per_minute: 120 })
    expect(c.servers.modes).toContain('skyblock')
    expect(Object.isFrozen(c) && Object.isFrozen(c.http)).toBe(true)
  })

  test('a file sets values; paths are relative to its folder; durations become milliseconds', () => {
    const { dir, load } = fromToml(`
[site]
base_url = "https://vote.example.org/"
service_name = "ExampleList"
[database]
path = "db/site.db"
[deliveries]
retry_delays = ["1s", "2m", "1h"]
[votes]
captcha = "off"
`)
    const c = load()
    expect(c.source).toBe(join(dir, 'votelist.toml'))
    expect(c.site.base_url).toBe('https://vote.example.org')
    expect(c.database.path).toBe(join(dir, 'db/site.db'))
    expect(c.deliveries.retry_delays).toEqual([1000, 120_000, 3_600_000])
    expect(c.votes.captcha).toBe('off')
  })

  test('site.base_url at the root of its host, with or without a trailing "/"', () => {
    for (const value of ['https://list.example', 'https://list.example/', 'http://list.example:8080//']) {
      expect(fromToml(`[site]\nbase_url = "${value}"`).load().site.base_url).toBe(value.replace(/\/+$/, ''))
    }
  })

  test('--config pointing nowhere is an error naming the file', () => {
    expect(() => loadConfig('missing.toml', tempDir())).toThrow('missing.toml: config file not found')
  })

  const bad: [string, string][] = [
    ['[http]\nprot = 80', 'http.prot: unknown key'],
    ['[htp]\nport = 80', 'htp: unknown section'],
    ['[http]\nport = "80"', 'http.port: must be an integer'],
    ['[http]\nport = 70000', 'http.port: must be from 0 to 65535'],
    ['[http]\nport = -1', 'http.port: must be from 0 to 65535'],
    ['[http]\ntrust_proxy = "yes"', 'http.trust_proxy: must be true or false'],
    ['[votes]\ncaptcha = "recaptcha"', 'votes.captcha: must be one of "pow", "off"'],
    ['[votes]\ninterval_minutes = 0', 'votes.interval_minutes: must be from 1 to 10080'],
    ['[deliveries]\nretry_delays = ["5 minutes"]', 'deliveries.retry_delays[0]: must be a duration'],
    ['[deliveries]\nretry_delays = "1m"', 'deliveries.retry_delays: must be a list of durations'],
    ['[site]\nbase_url = "ftp://x"', 'site.base_url: must be an http:// or https:// URL'],
    ['[site]\nbase_url = "https://list.example/votes"', 'site.base_url: must be the root of its host, such as "https://list.example": votelist serves every page from "/", not under a path (got "https://list.example/votes")'],
    ['[site]\nbase_url = "https://list.example/votes/"', 'site.base_url: must be the root of its host, such as "https://list.example"'],
    // The vote page asks <ipv4_url>/api/v1/vote-token: under a path it would find nothing there,
    // and every vote would silently lose its second address.
    ['[site]\nipv4_url = "https://v4.list.example/votes"', 'site.ipv4_url: must be the root of its host, such as "https://v4.list.example"'],
    ['[site]\nipv6_url = "https://v6.list.example/votes/"', 'site.ipv6_url: must be the root of its host, such as "https://v6.list.example"'],
    ['[site]\nservice_name = "has space"', 'site.service_name: must use only letters'],
    ['[servers]\nmodes = ["Survival"]', 'servers.modes[0]: must be 1–32 of a-z'],
    ['http = 3', 'http: must be a table'],
    ['[database]\npath = "x.db"\nurl = "postgres://u:p@db.example.com/votelist"', 'database.path and database.url are both set'],
    ['[database]\nurl = "mysql://u:p@db.example.com/votelist"', 'database.url: must be a postgres:// URL'],
    ['[database]\nurl = "postgres://u:p@db.example.com"', 'database.url: must name the database'],
    ['[database]\nurl = "not a url"', 'database.url: must be a URL such as'],
    ['[database]\npool_size = 0', 'database.pool_size: must be from 1 to 1000'],
    ['[database]\nstatement_timeout = "0s"', 'database.statement_timeout: must be longer than zero'],
    ['[jobs]\nlease = "30s"', 'jobs.lease must be longer than the longest delivery attempt (75 s'],
    ['[deliveries]\nwebhook_timeout = "5m"', 'jobs.lease must be longer than the longest delivery attempt (360 s'],
    ['[http\nport=1', 'not valid TOML'],
    // PostgreSQL refuses a statement_timeout past 2^31 − 1 ms at every connection (the site would
    // not start, exit 1, without naming the key), and a timer that long fires at once.
    ['[database]\nstatement_timeout = "600h"', 'database.statement_timeout: must be at most "2147483s" (about 596 hours)'],
    ['[deliveries]\nwebhook_timeout = "600h"\n[jobs]\nlease = "700h"', 'deliveries.webhook_timeout: must be at most "2147483s" (about 596 hours)'],
    ['[deliveries]\nvotifier_connect_timeout = "2147484s"\n[jobs]\nlease = "2000h"', 'deliveries.votifier_connect_timeout: must be at most "2147483s"'],
    ['[deliveries]\nvotifier_read_timeout = "600h"\n[jobs]\nlease = "2000h"', 'deliveries.votifier_read_timeout: must be at most "2147483s"'],
  ]
  for (const [toml, message] of bad) {
    test(`refuses ${JSON.stringify(toml)} with "${message}"`, () => {
      const { load } = fromToml(toml)
      let err: unknown
      try { load() } catch (e) { err = e }
      expect(err).toBeInstanceOf(ConfigError)
      expect((err as Error).message).toContain(message)
      expect((err as Error).message).not.toContain('\n')
    })
  }

  test('database.url selects PostgreSQL; the password never appears in what is logged', () => {
    const c = parseConfig({ database: { url: 'postgres://site:s3cr%40t@db.example.com:5432/votelist?sslmode=require', pool_size: 4, statement_timeout: '5s' } }, tempDir())
    expect(c.database).toMatchObject({ url: 'postgres://site:s3cr%40t@db.example.com:5432/votelist?sslmode=require', pool_size: 4, statement_timeout: 5000 })
    expect(databaseLabel(c)).toBe('postgres://site@db.example.com:5432/votelist?sslmode=require')
    expect(databaseLabel(parseConfig({ database: { url: 'postgresql://db.example.com/v?password=hunter2' } }, tempDir()))).toBe('postgresql://db.example.com/v')
    // A refused URL is not echoed back either.
    expect(() => parseConfig({ database: { url: 'postgres://u:hunter2@' } }, tempDir())).toThrow('database.url: must be a URL such as')
    expect(() => parseConfig({ database: { url: 'mysql://u:hunter2@h/d' } }, tempDir())).toThrow(/^database\.url: must be a postgres:\/\/ URL \(got mysql:\/\/…\)$/)
  })

  test('without database.url the SQLite file is used; an empty url with a path is fine', () => {
    const dir = tempDir()
    const c = parseConfig({ database: { url: '', path: 'site.db' } }, dir)
    expect(c.database.url).toBe('')
    expect(databaseLabel(c)).toBe(join(dir, 'site.db'))
    expect(c.database).toMatchObject({ pool_size: 10, statement_timeout: 30_000 })
    expect(c.jobs.lease).toBe(120_000)
  })

  test('parseConfig accepts the small values tests rely on', () => {
    const c = parseConfig({ stats: { ping_interval_seconds: 1 }, deliveries: { retry_delays: ['1s'] } }, tempDir())
    expect(c.stats.ping_interval_seconds).toBe(1)
    expect(c.deliveries.retry_delays).toEqual([1000])
  })
})

// One reader for the command line, the site and the tests: the file is mapped into memory, and
// what cannot be mapped (an empty file, a pipe) is read another way with the same answers.
describe('loadConfig, the file as found', () => {
  const outcome = (read: () => Config) => {
    try {
      return { port: read().http.port }
    } catch (e) {
      return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` }
    }
  }
  test('a file, no file, a missing --config, a path under a file, a file that is not TOML or not valid, an empty file', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'votelist.toml'), '[http]\nport = 8081\n[site]\nname = "Read"\n')
    writeFileSync(join(dir, 'broken.toml'), '[http\nport = 1\n')
    writeFileSync(join(dir, 'invalid.toml'), '[http]\nport = "eighty"\n')
    writeFileSync(join(dir, 'empty.toml'), '')
    const empty = tempDir()
    expect(outcome(() => loadConfig(undefined, dir))).toEqual({ port: 8081 })
    expect(outcome(() => loadConfig('votelist.toml', dir))).toEqual({ port: 8081 })
    expect(outcome(() => loadConfig(undefined, empty))).toEqual({ port: 8080 })
    expect(outcome(() => loadConfig('missing.toml', dir))).toEqual({ error: 'ConfigError: missing.toml: config file not found' })
    expect(outcome(() => loadConfig('votelist.toml/under-a-file.toml', dir)))
      .toEqual({ error: 'ConfigError: votelist.toml/under-a-file.toml: config file not found' })
    expect(outcome(() => loadConfig('broken.toml', dir)).error).toStartWith(`ConfigError: ${join(dir, 'broken.toml')}: not valid TOML: `)
    expect(outcome(() => loadConfig('invalid.toml', dir))).toEqual({ error: `ConfigError: ${join(dir, 'invalid.toml')}: http.port: must be an integer (got "eighty")` })
    // An empty file cannot be mapped; it is read, and sets nothing.
    const c = loadConfig('empty.toml', dir)
    expect([c.source, c.given, c.http.port]).toEqual([join(dir, 'empty.toml'), [], 8080])
  })

  test('a named pipe is read as a file: its writer gets the whole read', async () => {
    const dir = tempDir()
    const fifo = join(dir, 'votelist.toml')
    expect(Bun.spawnSync(['mkfifo', fifo]).exitCode).toBe(0)
    const writer = Bun.spawn(['sh', '-c', `printf '[http]\\nport = 8082\\n' > "$0"`, fifo])
    expect(loadConfig(undefined, dir).http.port).toBe(8082)
    expect(await writer.exited).toBe(0)
  })

  test('a folder where the file should be is no file: the defaults; for --config, an error that says it is a folder', () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'votelist.toml'))
    expect(outcome(() => loadConfig(undefined, dir))).toEqual({ port: 8080 })
    expect(outcome(() => loadConfig('votelist.toml', dir)))
      .toEqual({ error: 'ConfigError: votelist.toml: is a folder, not a config file; give the file\'s own path (such as votelist.toml/votelist.toml)' })
    expect(outcome(() => loadConfig(dir, '/')))
      .toEqual({ error: `ConfigError: ${dir}: is a folder, not a config file; give the file's own path (such as ${join(dir, 'votelist.toml')})` })
  })
})
