import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// A throwaway PostgreSQL cluster for the tests: initdb into a temporary folder, the server on a
// free port of 127.0.0.1 (and a socket in that folder only), trust authentication for the one
// role `votelist`. Its data is disposable, so durability is off (fsync, full pages): the tests
// measure votelist's behaviour, not the disk. Benchmarks ask for a durable one, as in production. Run as root, the server runs as the `postgres`
// system user (it refuses to run as root).

export interface Cluster {
  url: string // postgres://votelist@127.0.0.1:PORT (no database)
  dir: string
  stop(): void
}

const run = (cmd: string[], asUser: string | null) => {
  const argv = asUser ? ['su', asUser, '-s', '/bin/sh', '-c', cmd.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')] : cmd
  const r = Bun.spawnSync(argv, { stdout: 'pipe', stderr: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`${cmd[0]} failed (exit ${r.exitCode}): ${r.stderr.toString().trim() || r.stdout.toString().trim()}`)
}

const passwdEntry = (name: string) => {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`))
  return line ? { uid: Number(line.split(':')[2]), gid: Number(line.split(':')[3]) } : null
}

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const { port } = probe
  probe.stop(true)
  return port
}

export async function startCluster(bin: string, opts: { durable?: boolean } = {}): Promise<Cluster> {
  const asRoot = process.getuid?.() === 0
  const owner = asRoot ? passwdEntry('postgres') : null
  if (asRoot && !owner) throw new Error('running as root, the test cluster needs the postgres system user (created by Debian\'s postgresql package)')
  const dir = mkdtempSync(join(tmpdir(), 'votelist-pg-'))
  const user = asRoot ? 'postgres' : null
  try {
    if (owner) chownSync(dir, owner.uid, owner.gid)
    const data = join(dir, 'data')
    run([join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'votelist', '-E', 'UTF8', '--locale=C', '--no-sync'], user)
    // A port found free may be taken before the server binds it: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      const durability = opts.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']
      const options = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', ...durability, '-c max_connections=400', '-c log_min_messages=fatal'].join(' ')
      try {
        run([join(bin, 'pg_ctl'), '-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start'], user)
      } catch (e) {
        if (attempt < 5) continue
        throw e
      }
      return {
        url: `postgres://votelist@127.0.0.1:${port}`,
        dir,
        stop() {
          try {
            run([join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'], user)
          } finally {
            rmSync(dir, { recursive: true, force: true })
          }
        },
      }
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    throw e
  }
}
