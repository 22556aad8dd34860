import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { VERSION } from '../../src/version.ts'
import { buildBinary, repoRoot, runChild } from '../spawn.ts'
import { until } from '../until.ts'

// install.sh as root on a machine with systemd: the real script, run as root in a private mount
// namespace where /etc, /usr/local and /var/lib are overlays on a throwaway tmpfs (everything it
// writes, the votelist user included, vanishes with the namespace) and /run/systemd/system exists;
// `systemctl` is a stand-in script on PATH that records its calls and plays the service's states.

const skip = process.platform !== 'linux' ? 'Linux only'
  : process.getuid?.() !== 0 ? 'needs root (for a private mount namespace)'
    : !Bun.which('unshare') ? 'unshare is not installed'
      : !Bun.which('useradd') ? 'useradd is not installed'
        // A container without CAP_SYS_ADMIN refuses a mount namespace, or overlays in it.
        : Bun.spawnSync(['unshare', '--mount', 'sh', '-c', 'mount -t tmpfs probe /mnt']).exitCode !== 0 ? 'this machine refuses private mounts' : null
if (skip) console.log(`systemd.test.ts: skipping: ${skip}`)

afterAll(cleanupTemp)

let binary = ''
beforeAll(async () => { if (!skip) binary = await buildBinary() }, 120_000)

// ENABLE: "fail" makes `systemctl enable` fail. BEFORE: what `is-active` answers before
// `systemctl restart|start`; AFTER: what it answers after, one word a call, the last one repeated
// ("active activating active": started, restarted by systemd after a failure, up again). SERVE:
// "yes" makes restart|start run the installed binary's real `serve` with the installed config
// (its pid in $FAKE_STATE/serve.pid), as the unit would.
const fakeSystemctl = `#!/bin/sh
echo "$*" >> "$FAKE_STATE/calls"
case "$1" in
  daemon-reload) exit 0 ;;
  enable)
    if [ "$FAKE_ENABLE" = fail ]; then
      echo "Failed to enable unit: Unit file /etc/systemd/system/votelist.service is masked." >&2
      exit 1
    fi
    echo "Created symlink /etc/systemd/system/multi-user.target.wants/votelist.service."
    exit 0 ;;
  restart|start)
    touch "$FAKE_STATE/started"
    if [ "$FAKE_SERVE" = yes ]; then
      /usr/local/bin/votelist serve --config /etc/votelist/votelist.toml >"$FAKE_STATE/serve.log" 2>&1 </dev/null &
      echo $! > "$FAKE_STATE/serve.pid"
    fi
    exit 0 ;;
  is-active)
    quiet=no; [ "$2" = --quiet ] && quiet=yes
    if [ -f "$FAKE_STATE/started" ]; then
      n=$(cat "$FAKE_STATE/checks" 2>/dev/null || echo 0)
      echo $((n + 1)) > "$FAKE_STATE/checks"
      set -- $FAKE_AFTER
      while [ $# -gt 1 ] && [ $n -gt 0 ]; do shift; n=$((n - 1)); done
      state=$1
    else
      state=$FAKE_BEFORE
    fi
    [ $quiet = yes ] || echo "$state"
    [ "$state" = active ] ;;
  *) echo "fake systemctl: unexpected: $*" >&2; exit 1 ;;
esac
`

// An upgrade's setting: CONFIG is the admin's /etc/votelist/votelist.toml, already there; ARGS
// are install.sh's own.
async function installAsRoot(fake: { enable?: 'fail'; before: string; after: string; serve?: boolean; config?: string; args?: string[] }) {
  const dir = tempDir()
  const bin = join(dir, 'bin')
  const state = join(dir, 'state')
  const scratch = join(dir, 'scratch')
  for (const d of [bin, state, scratch]) Bun.spawnSync(['mkdir', '-p', d])
  writeFileSync(join(bin, 'systemctl'), fakeSystemctl)
  chmodSync(join(bin, 'systemctl'), 0o755)
  writeFileSync(join(state, 'calls'), '')
  if (fake.config !== undefined) writeFileSync(join(dir, 'votelist.toml'), fake.config)
  const setup = [
    'set -e',
    'mount --make-rprivate /',
    `mount -t tmpfs scratch ${scratch}`,
    ...['etc', 'usr/local', 'var/lib'].flatMap((d) => [
      `mkdir -p ${scratch}/upper/${d} ${scratch}/work/${d}`,
      `mount -t overlay overlay -o lowerdir=/${d},upperdir=${scratch}/upper/${d},workdir=${scratch}/work/${d} /${d}`,
    ]),
    'mount -t tmpfs run /run',
    'mkdir -p /run/systemd/system',
    ...(fake.config === undefined ? [] : [`mkdir -p /etc/votelist`, `cp ${join(dir, 'votelist.toml')} /etc/votelist/votelist.toml`]),
    `exec sh ${join(repoRoot, 'install.sh')} --binary ${binary} ${(fake.args ?? []).join(' ')}`,
  ].join('\n')
  const r = await runChild(['unshare', '--mount', 'sh', '-c', setup], {
    env: {
      PATH: `${bin}:${process.env.PATH}`, DESTDIR: '', FAKE_STATE: state,
      FAKE_ENABLE: fake.enable ?? '', FAKE_BEFORE: fake.before, FAKE_AFTER: fake.after, FAKE_SERVE: fake.serve ? 'yes' : '',
    },
  })
  // The site the fake systemctl started (a process of this test's): stopped before the next test.
  if (existsSync(join(state, 'serve.pid'))) {
    const pid = Number(readFileSync(join(state, 'serve.pid'), 'utf8'))
    try { process.kill(pid, 'SIGTERM') } catch { /* already gone */ }
    await until(() => { try { process.kill(pid, 0); return false } catch { return true } }, 'the site started by the fake systemctl to stop')
  }
  return { ...r, calls: readFileSync(join(state, 'calls'), 'utf8').trim().split('\n') }
}

// A port nothing listens on now (the kernel's pick, released).
function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

// The admin's configuration: loopback, on `port`.
const siteConfig = (port: number) => `[http]\nhost = "127.0.0.1"\nport = ${port}\n[database]\npath = "/var/lib/votelist/votelist.db"\n`
const RESTART = ['daemon-reload', 'enable votelist.service', 'is-active --quiet votelist.service', 'restart votelist.service']

describe.skipIf(!!skip)('install.sh as root with systemd', () => {
  test('a first install enables the service and leaves it stopped', async () => {
    const r = await installAsRoot({ before: 'inactive', after: 'active' })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('created system user votelist')
    expect(r.stdout).toContain('enabled votelist.service; edit /etc/votelist/votelist.toml, then: systemctl start votelist')
    expect(r.calls).toEqual(['daemon-reload', 'enable votelist.service', 'is-active --quiet votelist.service'])
  })

  test('a failing `systemctl enable` is named, with its own message and where to look', async () => {
    const r = await installAsRoot({ enable: 'fail', before: 'inactive', after: 'active' })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('install.sh: systemctl enable votelist.service failed: Failed to enable unit: Unit file /etc/systemd/system/votelist.service is masked.')
    expect(r.stderr).toContain('systemctl status votelist.service')
  })
  test('an upgrade restarts a running service and reports it once the new version answers its health check', async () => {
    const r = await installAsRoot({ before: 'active', after: 'active', serve: true, config: siteConfig(freePort()) })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`restarted votelist.service (migrations run at start); it answers its health check as votelist ${VERSION}`)
    expect(r.calls.slice(0, RESTART.length)).toEqual(RESTART)
    expect(r.calls.length).toBeGreaterThan(RESTART.length)
    expect(new Set(r.calls.slice(RESTART.length))).toEqual(new Set(['is-active votelist.service']))
  }, 30_000)

  test('an upgrade whose new version stays "active" but never answers fails once --wait runs out, naming what it saw', async () => {
    const port = freePort()
    const r = await installAsRoot({ before: 'active', after: 'active', config: siteConfig(port), args: ['--wait', '2'] })
    expect(r.code).toBe(1)
    expect(r.stdout).not.toContain('restarted votelist.service')
    expect(r.stderr).toStartWith(`install.sh: votelist.service did not answer its health check within 2 s after the restart (systemd says: active): votelist health: no answer from http://127.0.0.1:${port}/api/v1/health: connection refused`)
    expect(r.stderr).toContain('journalctl -u votelist.service -n 50')
    expect(r.stderr).toContain('votelist health --config /etc/votelist/votelist.toml')
  }, 30_000)

  test('another program answering on the port (an old votelist left running) is not the new version', async () => {
    const old = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ ok: true, version: '2000.01.01' }) })
    try {
      const r = await installAsRoot({ before: 'active', after: 'active', config: siteConfig(old.port!), args: ['--wait', '2'] })
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(`(systemd says: active): votelist 2000.01.01 answers there, not ${VERSION} (another votelist on that port?)`)
    } finally {
      old.stop(true)
    }
  }, 30_000)

  test('a new version that systemd keeps restarting fails the install at the third restart, without waiting the whole bound', async () => {
    const r = await installAsRoot({ before: 'active', after: 'activating active activating active activating', config: siteConfig(freePort()) })
    expect(r.code).toBe(1)
    expect(r.stderr).toStartWith('install.sh: votelist.service keeps failing after the restart: systemd restarted it 3 times (it says: activating)')
    expect(r.stderr).toContain('journalctl -u votelist.service -n 50')
    expect(r.calls.slice(RESTART.length)).toHaveLength(5)
  }, 30_000)

  test('with http.port = 0 there is no address to ask: "active" at three checks in a row, and it says it did not check', async () => {
    const r = await installAsRoot({ before: 'active', after: 'active', config: siteConfig(0) })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('restarted votelist.service (migrations run at start); not checked that it answers: http.port = 0 leaves no fixed address to ask')
    expect(r.calls).toEqual([...RESTART, 'is-active votelist.service', 'is-active votelist.service', 'is-active votelist.service'])
  }, 30_000)

  test('an upgrade whose new version fails to start says so, where to look, and exits 1', async () => {
    const r = await installAsRoot({ before: 'active', after: 'failed' })
    expect(r.code).toBe(1)
    expect(r.stdout).not.toContain('restarted votelist.service')
    expect(r.stderr).toBe('install.sh: votelist.service did not come back after the restart (systemd says: failed). See why: journalctl -u votelist.service -n 50')
  })
})
