import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { buildBinary, repoRoot, runChild } from '../spawn.ts'

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

// ENABLE: "fail" makes `systemctl enable` fail. BEFORE / AFTER: what `is-active` answers before and
// after `systemctl restart|start` ("active", "failed", "activating").
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
  restart|start) touch "$FAKE_STATE/started"; exit 0 ;;
  is-active)
    if [ -f "$FAKE_STATE/started" ]; then state=$FAKE_AFTER; else state=$FAKE_BEFORE; fi
    [ "$2" = --quiet ] || echo "$state"
    [ "$state" = active ] ;;
  *) echo "fake systemctl: unexpected: $*" >&2; exit 1 ;;
esac
`

async function installAsRoot(fake: { enable?: 'fail'; before: string; after: string }) {
  const dir = tempDir()
  const bin = join(dir, 'bin')
  const state = join(dir, 'state')
  const scratch = join(dir, 'scratch')
  for (const d of [bin, state, scratch]) Bun.spawnSync(['mkdir', '-p', d])
  writeFileSync(join(bin, 'systemctl'), fakeSystemctl)
  chmodSync(join(bin, 'systemctl'), 0o755)
  writeFileSync(join(state, 'calls'), '')
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
    `exec sh ${join(repoRoot, 'install.sh')} --binary ${binary}`,
  ].join('\n')
  const r = await runChild(['unshare', '--mount', 'sh', '-c', setup], {
    env: {
      PATH: `${bin}:${process.env.PATH}`, DESTDIR: '', FAKE_STATE: state,
      FAKE_ENABLE: fake.enable ?? '', FAKE_BEFORE: fake.before, FAKE_AFTER: fake.after,
    },
  })
  return { ...r, calls: readFileSync(join(state, 'calls'), 'utf8').trim().split('\n') }
}

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
  test('an upgrade restarts a running service and reports it once systemd says it stays active', async () => {
    const r = await installAsRoot({ before: 'active', after: 'active' })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('restarted votelist.service (migrations run at start)')
    expect(r.calls).toEqual([
      'daemon-reload', 'enable votelist.service', 'is-active --quiet votelist.service', 'restart votelist.service',
      'is-active votelist.service', 'is-active votelist.service', 'is-active votelist.service',
    ])
  })

  test('an upgrade whose new version fails to start says so, where to look, and exits 1', async () => {
    const r = await installAsRoot({ before: 'active', after: 'failed' })
    expect(r.code).toBe(1)
    expect(r.stdout).not.toContain('restarted votelist.service')
    expect(r.stderr).toBe('install.sh: votelist.service did not come back after the restart (systemd says: failed). See why: journalctl -u votelist.service -n 50')
  })
})
