import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import { migrations } from '../../src/db/migrations.ts'
import { sha256Hex } from '../../src/ids.ts'
import { VERSION } from '../../src/version.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { buildBinary, killChildren, listeningUrl, repoRoot, runChild, spawnChild } from '../spawn.ts'

// The compiled binary, built with the project's own `bun run build` and copied away from the
// checkout, run from empty folders: everything it needs must be inside it.

afterAll(() => { killChildren(); cleanupTemp() })

let binary = ''
beforeAll(async () => { binary = await buildBinary() }, 120_000)

const votelist = (args: string[], opts: { cwd: string; stdin?: string }) => runChild([binary, ...args], opts)

function emptySite(): { dir: string; config: string } {
  const dir = tempDir('votelist-site-')
  // Private targets allowed: server add then makes no save-time DNS lookup (tests never ask a
  // real DNS server).
  writeFileSync(join(dir, 'votelist.toml'), '[http]\nhost = "127.0.0.1"\nport = 0\n[network]\nallow_private_targets = true\n')
  return { dir, config: join(dir, 'votelist.toml') }
}

describe('the single binary', () => {
  test('is built without .env or bunfig autoload, with web/ embedded', () => {
    expect(pkg.scripts.build).toContain('--no-compile-autoload-dotenv')
    expect(pkg.scripts.build).toContain('--no-compile-autoload-bunfig')
    expect(pkg.scripts.build).toContain('--asset web')
    expect(pkg.scripts.build).toContain('--outfile dist/votelist')
  })

  test('version and config check work from an empty folder', async () => {
    const dir = tempDir()
    expect(await votelist(['version'], { cwd: dir })).toEqual({ code: 0, stdout: VERSION, stderr: '' })
    expect(await votelist(['config', 'check'], { cwd: dir })).toEqual({
      code: 0, stdout: `configuration is valid (built-in defaults); database: ${join(dir, 'data/votelist.db')}`, stderr: '',
    })
    expect(readdirSync(dir)).toEqual([])
  })

  test('serves health and embedded assets from a folder holding only its config; CLI works beside it; SIGTERM stops it cleanly', async () => {
    const { dir, config } = emptySite()
    const site = spawnChild([binary, 'serve', '--config', config], { cwd: dir })
    const url = await listeningUrl(site)

    const health = await fetch(`${url}/api/v1/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ ok: true, version: VERSION })
    const icon = await fetch(`${url}/assets/favicon.svg`)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toStartWith('image/svg+xml')
    expect(await icon.text()).toBe(readFileSync(join(repoRoot, 'web/assets/favicon.svg'), 'utf8'))
    expect((await fetch(`${url}/assets/missing.svg`)).status).toBe(404)

    // The shell commands, against the running site's database.
    const c = ['--config', config]
    const user = await votelist(['user', 'add', '--email', 'admin@example.com', '--password', '-', ...c], { cwd: dir, stdin: 'correct horse battery staple\n' })
    expect(user.code).toBe(0)
    const server = await votelist(['server', 'add', '--owner', 'admin@example.com', '--name', 'Binary Test', '--host', 'play.example.com', ...c], { cwd: dir })
    expect(server.code).toBe(0)
    const { id: serverId, slug } = JSON.parse(server.stdout)
    const key = await votelist(['key', 'create', '--server', slug, ...c], { cwd: dir })
    expect(key.code).toBe(0)
    expect(key.stdout).toMatch(/^vlk_/)
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200)

    site.proc.kill('SIGTERM')
    expect(await site.exited).toBe(0)
    expect(site.err.at(-1)).toMatch(/ INFO stopped$/)
    const db = join(dir, 'data/votelist.db')
    expect(existsSync(`${db}-wal`)).toBe(false)
    expect(readdirSync(dir).sort()).toEqual(['data', 'votelist.toml'])

    const sqlite = new Database(db, { readonly: true })
    expect(sqlite.query('SELECT count(*) AS n FROM schema_migration').get()).toEqual({ n: migrations.length })
    expect(sqlite.query('SELECT hash FROM api_key WHERE server_id = ?').get(serverId)).toEqual({ hash: sha256Hex(key.stdout) })
    sqlite.close()
  })

  test('ignores a bunfig.toml in its working folder', async () => {
    const { dir, config } = emptySite()
    // Were bunfig autoloaded, this preload would run (and leave a marker) before votelist.
    writeFileSync(join(dir, 'bunfig.toml'), 'preload = ["./preload.ts"]\n')
    writeFileSync(join(dir, 'preload.ts'), `require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'PRELOADED'))}, 'yes')\n`)
    const r = await votelist(['migrate', '--config', config], { cwd: dir })
    expect(r.code).toBe(0)
    expect(r.stdout).toStartWith('applied 0001_')
    expect(existsSync(join(dir, 'PRELOADED'))).toBe(false)
  })

  test('a bad config stops the binary with exit 78 and one line', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'votelist.toml'), '[http]\nport = 99999\n')
    const r = await votelist(['serve'], { cwd: dir })
    expect(r).toEqual({ code: 78, stdout: '', stderr: `votelist: configuration error: ${join(dir, 'votelist.toml')}: http.port: must be from 0 to 65535 (got 99999)` })
  })
})
