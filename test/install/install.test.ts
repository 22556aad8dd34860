import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { loadConfig } from '../../src/config/load.ts'
import { exampleToml } from '../../src/config/reference.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { buildBinary, repoRoot, runChild } from '../spawn.ts'

afterAll(cleanupTemp)

let binary = ''
beforeAll(async () => { binary = await buildBinary() }, 120_000)

const install = (args: string[], env: Record<string, string> = {}) =>
  runChild(['sh', join(repoRoot, 'install.sh'), '--binary', binary, ...args], { env })

// Every path under root with its permission bits, e.g. "etc/votelist/votelist.toml 640".
function tree(root: string): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      const st = statSync(path)
      out.push(`${relative(root, path)} ${(st.mode & 0o777).toString(8)}`)
      if (st.isDirectory()) walk(path)
    }
  }
  walk(root)
  return out
}

// The unit file as "Key=value" lines of one section.
function unitSection(text: string, section: string): string[] {
  const body = text.split(/^\[/m).find((s) => s.startsWith(`${section}]`)) ?? ''
  return body.split('\n').slice(1).filter((l) => l && !l.startsWith('#'))
}

describe('install.sh into a staging root (DESTDIR)', () => {
  test('writes the binary, the config, the data folder and a hardened unit; skips user and systemd', async () => {
    const root = tempDir()
    const r = await install(['--prefix', '/opt/votelist'], { DESTDIR: root })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('skipped: creating the votelist user')
    expect(r.stdout).toContain('skipped: systemctl daemon-reload / enable')
    expect(tree(root)).toEqual([
      'etc 755', 'etc/systemd 755', 'etc/systemd/system 755', 'etc/systemd/system/votelist.service 644',
      'etc/votelist 755', 'etc/votelist/votelist.toml 640',
      'opt 755', 'opt/votelist 755', 'opt/votelist/bin 755', 'opt/votelist/bin/votelist 755',
      'var 755', 'var/lib 755', 'var/lib/votelist 750',
    ])
    expect(Bun.hash(readFileSync(join(root, 'opt/votelist/bin/votelist')))).toBe(Bun.hash(readFileSync(binary)))

    // The config: the schema's commented defaults, with the database in /var/lib/votelist.
    const config = readFileSync(join(root, 'etc/votelist/votelist.toml'), 'utf8')
    expect(config).toBe(exampleToml({ 'database.path': '"/var/lib/votelist/votelist.db"' }))
    const loaded = loadConfig(join(root, 'etc/votelist/votelist.toml'))
    expect(loaded.database.path).toBe('/var/lib/votelist/votelist.db')
    expect(loaded.http.port).toBe(8080)

    const unit = readFileSync(join(root, 'etc/systemd/system/votelist.service'), 'utf8')
    const service = unitSection(unit, 'Service')
    for (const line of [
      'User=votelist', 'Group=votelist',
      'ExecStart=/opt/votelist/bin/votelist serve --config /etc/votelist/votelist.toml',
      'WorkingDirectory=/var/lib/votelist', 'Restart=on-failure', 'RestartPreventExitStatus=2 77 78', 'KillSignal=SIGTERM',
      'NoNewPrivileges=yes', 'ProtectSystem=strict', 'ReadWritePaths=/var/lib/votelist', 'ProtectHome=yes', 'PrivateTmp=yes',
      'PrivateDevices=yes', 'CapabilityBoundingSet=', 'SystemCallFilter=@system-service',
    ]) expect(service).toContain(line)
    expect(service.some((l) => l.startsWith('MemoryDenyWriteExecute'))).toBe(false)
    expect(unitSection(unit, 'Install')).toEqual(['WantedBy=multi-user.target'])
  })

  test('is idempotent and keeps an edited config on upgrade; --destdir equals DESTDIR; default prefix /usr/local', async () => {
    const root = tempDir()
    expect((await install(['--destdir', root])).code).toBe(0)
    const first = tree(root)
    expect(first).toContain('usr/local/bin/votelist 755')
    const configPath = join(root, 'etc/votelist/votelist.toml')
    const edited = readFileSync(configPath, 'utf8').replace('# base_url = ""', 'base_url = "https://vote.example.org"')
    writeFileSync(configPath, edited)

    const again = await install([], { DESTDIR: root })
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('kept /etc/votelist/votelist.toml')
    expect(again.stdout).toContain('/usr/local/bin/votelist is already')
    expect(tree(root)).toEqual(first)
    expect(readFileSync(configPath, 'utf8')).toBe(edited)
    expect(loadConfig(configPath).site.base_url).toBe('https://vote.example.org')
  })

  test('refuses to upgrade over a config the new version rejects, and changes nothing', async () => {
    const root = tempDir()
    expect((await install([], { DESTDIR: root })).code).toBe(0)
    const configPath = join(root, 'etc/votelist/votelist.toml')
    writeFileSync(configPath, '[http]\nport = 123456\n')
    const installed = join(root, 'usr/local/bin/votelist')
    writeFileSync(installed, 'old binary')
    const r = await install([], { DESTDIR: root })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('http.port: must be from 0 to 65535')
    expect(r.stderr).toContain('Nothing was changed')
    expect(readFileSync(installed, 'utf8')).toBe('old binary')
  })

  test('bad arguments: exit 2 with usage; a missing binary: exit 1', async () => {
    const bad = await runChild(['sh', join(repoRoot, 'install.sh'), '--frobnicate'], { env: { DESTDIR: tempDir() } })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('unknown argument: --frobnicate')
    expect(bad.stderr).toContain('Usage: install.sh')
    for (const wait of ['0', 'ten', '-5', '']) {
      const badWait = await install(['--wait', wait], { DESTDIR: tempDir() })
      expect(badWait.code).toBe(2)
      expect(badWait.stderr).toContain(`--wait must be a number of seconds from 1 up (got ${wait})`)
    }
    expect((await install(['--wait=900'], { DESTDIR: tempDir() })).code).toBe(0)
    const relativePrefix = await install(['--prefix', 'opt'], { DESTDIR: tempDir() })
    expect(relativePrefix.code).toBe(1)
    expect(relativePrefix.stderr).toContain('--prefix must be an absolute path')
    const missing = await runChild(['sh', join(repoRoot, 'install.sh'), '--binary', '/nonexistent/votelist'], { env: { DESTDIR: tempDir() } })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('no binary at /nonexistent/votelist')
  })

  const analyze = Bun.which('systemd-analyze')
  if (!analyze) console.log('install.test.ts: skipping `systemd-analyze verify`: systemd-analyze is not installed on this machine')
  test.skipIf(!analyze)('systemd-analyze verify accepts the unit without a single warning', async () => {
    const root = tempDir()
    expect((await install([], { DESTDIR: root })).code).toBe(0)
    // verify resolves the unit's dependencies (multi-user.target, …) inside --root: give it the
    // system's own units there.
    const systemUnits = ['/usr/lib/systemd/system', '/lib/systemd/system'].find((d) => existsSync(d))!
    cpSync(systemUnits, join(root, 'usr/lib/systemd/system'), { recursive: true })
    const r = await runChild([analyze!, 'verify', '--man=no', `--root=${root}`, '/etc/systemd/system/votelist.service'])
    expect({ code: r.code, stderr: r.stderr, stdout: r.stdout }).toEqual({ code: 0, stderr: '', stdout: '' })
  })
})
