import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

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

// The command as `asUser` runs it (su, each argument quoted for its shell), or as it is.
const argvAs = (cmd: string[], asUser: string | null) =>
  (asUser ? ['su', asUser, '-s', '/bin/sh', '-c', cmd.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')] : cmd)
const failed = (cmd: string[], exitCode: number, stderr: string, stdout: string) =>
  new Error(`${cmd[0]} failed (exit ${exitCode}): ${stderr.trim() || stdout.trim()}`)

const run = (cmd: string[], asUser: string | null) => {
  const r = Bun.spawnSync(argvAs(cmd, asUser), { stdout: 'pipe', stderr: 'pipe' })
  if (r.exitCode !== 0) throw failed(cmd, r.exitCode, r.stderr.toString(), r.stdout.toString())
}

// The same, without blocking the event loop (a site in the test's own process keeps running).
async function runAsync(cmd: string[], asUser: string | null) {
  const proc = Bun.spawn(argvAs(cmd, asUser), { stdout: 'pipe', stderr: 'pipe' })
  const exitCode = await proc.exited
  if (exitCode !== 0) throw failed(cmd, exitCode, await new Response(proc.stderr).text(), await new Response(proc.stdout).text())
}

// Run as root, the server runs as the postgres system user (it refuses root).
const clusterUser = () => (process.getuid?.() === 0 ? 'postgres' : null)

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
  const user = clusterUser()
  const owner = user ? passwdEntry(user) : null
  if (user && !owner) throw new Error('running as root, the test cluster needs the postgres system user (created by Debian\'s postgresql package)')
  const dir = mkdtempSync(join(tmpdir(), 'votelist-pg-'))
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

// Stops the running test cluster whose data folder is `data` (fast: every connection is cut), for
// tests of the database going away, and answers the way to start it again as it was: its binaries
// and options are read from postmaster.opts (the program, then each argument quoted), its log is
// the cluster's own (startCluster's folder).
export async function stopCluster(data: string): Promise<() => Promise<void>> {
  const opts = readFileSync(join(data, 'postmaster.opts'), 'utf8')
  const bin = dirname(opts.slice(0, opts.indexOf(' ')))
  const words = [...opts.matchAll(/"([^"]*)"/g)].map((m) => m[1])
  const at = words.indexOf('-D')
  const options = words.filter((_, i) => i !== at && i !== at + 1).join(' ')
  const user = clusterUser()
  await runAsync([join(bin, 'pg_ctl'), '-D', data, '-m', 'fast', '-w', '-t', '60', 'stop'], user)
  return () => runAsync([join(bin, 'pg_ctl'), '-D', data, '-o', options, '-l', join(dirname(data), 'server.log'), '-w', '-t', '60', 'start'], user)
}
