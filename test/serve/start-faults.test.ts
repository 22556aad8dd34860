import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { EXIT } from '../../src/cli.ts'
import { userName } from '../../src/db/owner-guard.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { cli, killChildren, mainScript, runChild, spawnChild } from '../spawn.ts'

afterAll(() => { killChildren(); cleanupTemp() })

// Real refusals of the file system, for a real `votelist serve`. Root ignores file permissions,
// so when the tests run as root the site runs as `nobody` (setpriv) and the files it may use are
// given to that user; otherwise it runs as the tests' own user.
const asRoot = process.getuid!() === 0
const SITE_UID = asRoot ? 65534 : process.getuid!()
const asSiteUser = asRoot ? ['setpriv', `--reuid=${SITE_UID}`, `--regid=${SITE_UID}`, '--clear-groups'] : []
const give = (path: string) => { if (asRoot) chownSync(path, SITE_UID, SITE_UID) }
const siteUser = `the user votelist runs as (${userName(SITE_UID) ?? `uid ${SITE_UID}`})`

// A folder the site user can reach, with a votelist.toml whose database is `database` (relative).
function site(database: string) {
  const dir = tempDir()
  chmodSync(dir, 0o755)
  const config = join(dir, 'votelist.toml')
  writeFileSync(config, `[http]\nhost = "127.0.0.1"\nport = 0\n[database]\npath = "${database}"\n`)
  return { dir, config, db: join(dir, database) }
}

const serve = (config: string, prefix: string[] = asSiteUser) => runChild([...prefix, process.execPath, mainScript, 'serve', '--config', config])

// One line on stderr, nothing on stdout, no stack trace.
function expectOneLine(r: { code: number; stdout: string; stderr: string }, code: number) {
  expect({ code: r.code, stdout: r.stdout, lines: r.stderr.split('\n').length }).toEqual({ code, stdout: '', lines: 1 })
  expect(r.stderr).not.toMatch(/\n\s+at /)
}

describe('a database the site may not write', () => {
  test('a read-only database file: exit 77, naming the file and the user', async () => {
    const s = site('data/votelist.db')
    expect((await cli(['migrate', '--config', s.config])).code).toBe(0)
    give(join(s.dir, 'data'))
    give(s.db)
    chmodSync(s.db, 0o444)
    const r = await serve(s.config)
    expectOneLine(r, EXIT.noPermission)
    expect(r.stderr).toBe(`votelist serve: the database ${s.db} is read-only for ${siteUser}: make it writable by that user (database.path)`)
  })

  test('a data folder the site cannot write (the database itself writable): exit 77, naming the folder', async () => {
    const s = site('data/votelist.db')
    expect((await cli(['migrate', '--config', s.config])).code).toBe(0)
    give(s.db)
    chmodSync(join(s.dir, 'data'), 0o555)
    const r = await serve(s.config)
    expectOneLine(r, EXIT.noPermission)
    expect(r.stderr).toBe(`votelist serve: the data folder ${join(s.dir, 'data')} is not writable by ${siteUser}: the database and its -wal and -shm files are written there (database.path)`)
  })

  test('a data folder that cannot be created: exit 77', async () => {
    const s = site('data/votelist.db')
    chmodSync(s.dir, 0o555)
    const r = await serve(s.config)
    chmodSync(s.dir, 0o755)
    expectOneLine(r, EXIT.noPermission)
    expect(r.stderr).toBe(`votelist serve: cannot create the data folder ${join(s.dir, 'data')}: permission denied for ${siteUser} (database.path)`)
  })
})

// The instance lock is only a lock if the site's user may write its file: SQLite opens a file it
// may not write read-only, without a word, and a read-only connection holds a shared lock that any
// number of processes share. A `serve` run once as root leaves the file root's.
describe('an instance lock file the site may not write', () => {
  test('serve refuses to start (exit 77), naming the file and what to do, rather than run unlocked', async () => {
    const s = site('data/votelist.db')
    expect((await cli(['migrate', '--config', s.config])).code).toBe(0)
    give(join(s.dir, 'data'))
    give(s.db)
    const lock = `${s.db}.lock`
    writeFileSync(lock, '')
    chmodSync(lock, 0o444)
    const child = spawnChild([...asSiteUser, process.execPath, mainScript, 'serve', '--config', s.config])
    const listening = child.waitFor('err', /votelist listening/).then(() => 'listening', () => new Promise<never>(() => {}))
    const outcome = await Promise.race([child.exited, listening])
    child.proc.kill('SIGTERM')
    await child.exited
    expect({ outcome, stderr: child.err }).toEqual({
      outcome: EXIT.noPermission,
      stderr: [`votelist serve: the instance lock ${lock} is read-only for ${siteUser}, so it cannot keep a second votelist serve off this database: delete it while no votelist serve runs, or make it writable by that user (a votelist serve run as another user, such as root, leaves it behind)`],
    })
  })
})

describe('a database.path that cannot name a database file', () => {
  test('the path of a folder (the data folder rather than the file in it): exit 77, saying so', async () => {
    const s = site('data')
    mkdirSync(s.db)
    const r = await serve(s.config, [])
    expectOneLine(r, EXIT.noPermission)
    expect(r.stderr).toBe(`votelist serve: database.path names the folder ${s.db}: it must name the database file, e.g. ${join(s.db, 'votelist.db')}`)
    // The instance lock file this start created is gone with it; one that was there before stays.
    expect(readdirSync(s.dir).sort()).toEqual(['data', 'votelist.toml'])
    writeFileSync(`${s.db}.lock`, '')
    expect((await serve(s.config, [])).code).toBe(EXIT.noPermission)
    expect(readdirSync(s.dir).sort()).toEqual(['data', 'data.lock', 'votelist.toml'])
  })

  test('a path under a file: exit 77, naming the file in the way', async () => {
    const s = site('votelist.toml/votelist.db')
    const r = await serve(s.config, [])
    expectOneLine(r, EXIT.noPermission)
    expect(r.stderr).toBe(`votelist serve: cannot create the data folder ${s.config}: a file of that name is in the way (database.path)`)
  })
})

describe('a configuration file the site may not read', () => {
  // install.sh makes it root:votelist, mode 640: a wrong owner or mode is an admin's mistake
  // that restarting does not fix, so it is a configuration error (78), not a crash (1) that
  // systemd would restart every two seconds.
  test('serve and config check: exit 78, naming the file and the user, no stack trace', async () => {
    const s = site('data/votelist.db')
    chmodSync(s.config, 0o600)
    if (!asRoot) chmodSync(s.config, 0o000)
    for (const argv of [['serve'], ['config', 'check']]) {
      const r = await runChild([...asSiteUser, process.execPath, mainScript, ...argv, '--config', s.config])
      expectOneLine(r, EXIT.config)
      expect(r.stderr).toBe(`votelist: configuration error: ${s.config}: cannot read the file: permission denied for ${siteUser}; make it readable by that user (install.sh makes it root:votelist, mode 640)`)
    }
    // Nothing was created: the database is only opened once the configuration is read.
    expect(existsSync(join(s.dir, 'data'))).toBe(false)
  })
})

describe('a port the site may not listen on', () => {
  // Without CAP_NET_BIND_SERVICE (the unit grants no capability) a port below the first
  // unprivileged one is refused; that does not change by restarting: exit 77, which systemd does
  // not restart after, and the message says the two ways out.
  const unprivileged = Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'))
  test.skipIf(unprivileged < 1024)('a port below 1024: exit 77, saying what to do instead', async () => {
    const s = site('data/votelist.db')
    writeFileSync(s.config, '[http]\nhost = "127.0.0.1"\nport = 1023\n')
    chmodSync(s.dir, 0o777)
    const r = await serve(s.config)
    expectOneLine(r, EXIT.noPermission)
    expect(r.stderr).toBe(`votelist serve: cannot listen on 127.0.0.1:1023: ports below 1024 need the capability CAP_NET_BIND_SERVICE, which ${siteUser} does not have: put a reverse proxy in front and set a port from 1024 up, or grant the capability (admins.md, "Ports below 1024") (http.port)`)
  })
})

describe('a disk that refuses the migration', () => {
  // A 64 KiB tmpfs over the data folder, mounted in a user namespace of the site alone.
  const tmpfs = Bun.spawnSync(['unshare', '-Urm', 'true']).exitCode === 0
  test.skipIf(!tmpfs)('a full disk: exit 74, saying which disk and which migration', async () => {
    const s = site('data/votelist.db')
    const data = join(s.dir, 'data')
    mkdirSync(data)
    const r = await serve(s.config, ['unshare', '-Urm', 'sh', '-c', 'mount -t tmpfs -o size=64k votelist-test "$0" && exec "$@"', data])
    expectOneLine(r, EXIT.ioError)
    const said = `votelist serve: the disk holding ${data} is full: cannot write the database ${s.db}`
    expect(r.stderr).toStartWith(said)
    expect(r.stderr.slice(said.length)).toMatch(/^ \(applying migration \d{4}_\w+\)$/)
  })

  test('a write refused by the file size limit (RLIMIT_FSIZE): exit 74, an I/O error on the database', async () => {
    const s = site('data/votelist.db')
    // With SIGXFSZ ignored (kept across exec), a write past the limit fails with EFBIG instead
    // of killing the process.
    const r = await serve(s.config, ['sh', '-c', 'trap "" XFSZ; exec prlimit --fsize=100000 "$@"', 'sh'])
    expectOneLine(r, EXIT.ioError)
    const said = `votelist serve: cannot write the database ${s.db}`
    expect(r.stderr).toStartWith(said)
    expect(r.stderr.slice(said.length)).toMatch(/^ \(applying migration \d{4}_\w+\): disk I\/O error \(SQLITE_IOERR\w*\)$/)
  })
})
