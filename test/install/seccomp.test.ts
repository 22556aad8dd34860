import { dlopen, FFIType } from 'bun:ffi'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { buildBinary, killChildren, listeningUrl, repoRoot, runChild, spawnChild } from '../spawn.ts'

// The unit's SystemCallFilter= must not kill the service: the installed unit's filter, applied
// with seccomp to the real binary (see test/harness/seccomp-exec.ts).

afterAll(() => { killChildren(); cleanupTemp() })

function missingTool(): string | null {
  if (process.platform !== 'linux') return 'seccomp is Linux only'
  if (!Bun.which('systemd-analyze')) return 'systemd-analyze is not installed'
  try {
    dlopen('libseccomp.so.2', { seccomp_init: { args: [FFIType.u32], returns: FFIType.ptr } }).close()
  } catch {
    return 'libseccomp.so.2 is not installed'
  }
  return null
}
const skip = missingTool()
if (skip) console.log(`seccomp.test.ts: skipping: ${skip}`)

let binary = ''
let filter = ''
beforeAll(async () => {
  if (skip) return
  binary = await buildBinary()
  const root = tempDir()
  const r = await runChild(['sh', join(repoRoot, 'install.sh'), '--binary', binary], { env: { DESTDIR: root } })
  if (r.code !== 0) throw new Error(r.stderr)
  const unit = readFileSync(join(root, 'etc/systemd/system/votelist.service'), 'utf8')
  filter = [...unit.matchAll(/^SystemCallFilter=(.*)$/gm)].map((m) => m[1]).join(' ')
}, 120_000)

const underFilter = (f: string, args: string[]) => [process.execPath, join(import.meta.dir, '../harness/seccomp-exec.ts'), f, binary, ...args]

function site() {
  const dir = tempDir()
  // Private targets allowed: server add then makes no save-time DNS lookup (tests never ask a
  // real DNS server).
  writeFileSync(join(dir, 'votelist.toml'), '[http]\nhost = "127.0.0.1"\nport = 0\n[network]\nallow_private_targets = true\n')
  return { dir, config: join(dir, 'votelist.toml') }
}

describe.skipIf(!!skip)('the unit\'s system call filter', () => {
  test('the installed unit has one', () => {
    expect(filter).toBe('@system-service')
  })

  // Six processes one after another, each started under the filter: about 2 s on an idle
  // machine, over 20 s on a busy one.
  test('the binary serves, runs its commands and stops cleanly under it', async () => {
    const { dir, config } = site()
    const c = ['--config', config]
    const serve = spawnChild(underFilter(filter, ['serve', ...c]), { cwd: dir })
    const url = await listeningUrl(serve)
    expect(await (await fetch(`${url}/api/v1/health`)).json()).toMatchObject({ ok: true })
    expect((await fetch(`${url}/assets/favicon.svg`)).status).toBe(200)
    const user = await runChild(underFilter(filter, ['user', 'add', '--email', 'a@example.com', '--password', '-', ...c]), { cwd: dir, stdin: 'correct horse battery\n' })
    expect(user.code).toBe(0)
    const server = await runChild(underFilter(filter, ['server', 'add', '--owner', 'a@example.com', '--name', 'Sec', '--host', 'play.example.com', ...c]), { cwd: dir })
    expect(server.code).toBe(0)
    const key = await runChild(underFilter(filter, ['key', 'create', '--server', 'sec', ...c]), { cwd: dir })
    expect(key.stdout).toMatch(/^vlk_/)
    const backup = await runChild(underFilter(filter, ['backup', join(dir, 'copy.db'), ...c]), { cwd: dir })
    expect(backup.code).toBe(0)
    serve.proc.kill('SIGTERM')
    expect(await serve.exited).toBe(0)
    expect(serve.err.at(-1)).toMatch(/ INFO stopped$/)
  }, 60_000)

  test('control: a filter without network calls does kill it, so the filter really applies', async () => {
    const { dir, config } = site()
    const r = await runChild(underFilter(`${filter} ~@network-io`, ['serve', '--config', config]), { cwd: dir })
    expect(r.code).not.toBe(0)
    expect(r.stderr).not.toContain('votelist listening')
  })
})
