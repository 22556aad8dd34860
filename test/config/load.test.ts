import { afterAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig, parseConfig } from '../../src/config/load.ts'
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
    ['[site]\nservice_name = "has space"', 'site.service_name: must use only letters'],
    ['[servers]\nmodes = ["Survival"]', 'servers.modes[0]: must be 1–32 of a-z'],
    ['http = 3', 'http: must be a table'],
    ['[http\nport=1', 'not valid TOML'],
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

  test('parseConfig accepts the small values tests rely on', () => {
    const c = parseConfig({ stats: { ping_interval_seconds: 1 }, deliveries: { retry_delays: ['1s'] } }, tempDir())
    expect(c.stats.ping_interval_seconds).toBe(1)
    expect(c.deliveries.retry_delays).toEqual([1000])
  })
})
