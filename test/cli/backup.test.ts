import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrations } from '../../src/db/migrations.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { cli, fillDatabase, killChildren, mainScript, runChild, spawnChild, writeSiteConfig } from '../spawn.ts'
import { until } from '../until.ts'

afterAll(() => { killChildren(); cleanupTemp() })

const BATCH = 10

// A site whose database is 128 MiB larger (its copy takes long enough to be caught half-way), and
// an empty folder for the backups.
async function largeSite() {
  const dir = tempDir()
  const config = writeSiteConfig(dir)
  expect((await cli(['migrate', '--config', config])).code).toBe(0)
  fillDatabase(join(dir, 'data/votelist.db'))
  const out = join(dir, 'out')
  mkdirSync(out)
  return { config, out }
}

describe('backup', () => {
  test('copies a database that another process is writing into, consistently', async () => {
    const dir = tempDir()
    const config = writeSiteConfig(dir)
    // The writer commits jobs in transactions of 10 as fast as it can.
    const writer = spawnChild([process.execPath, join(import.meta.dir, '../harness/enqueue-burst.ts'), config, String(BATCH)])
    await writer.waitFor('out', /^2000$/)
    const copies = [join(dir, 'copy-1.db'), join(dir, 'copy-2.db')]
    for (const copy of copies) {
      const r = await cli(['backup', copy, '--config', config])
      expect(r).toEqual({ code: 0, stdout: copy, stderr: '' })
      // The next copy is taken once the writer has committed a job this one does not hold
      // (ids count up from 1; a printed id is committed).
      const db = new Database(copy, { readonly: true })
      const { max } = db.query('SELECT max(id) AS max FROM job').get() as { max: number }
      db.close()
      await writer.waitFor('out', new RegExp(`^${max + 1}$`))
    }
    writer.proc.kill('SIGKILL')
    await writer.exited

    const counts: number[] = []
    for (const copy of copies) {
      // A standalone file: no WAL beside it, nothing else needed to open it.
      expect(existsSync(`${copy}-wal`)).toBe(false)
      const db = new Database(copy, { readonly: true })
      expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
      expect((db.query('SELECT name FROM schema_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name)).toEqual(migrations.map((m) => m.name))
      // One snapshot: only whole transactions, and no gap in the ids it holds.
      expect(db.query(`SELECT json_extract(payload, '$.batch') AS b, count(*) AS n FROM job GROUP BY b HAVING n <> ${BATCH}`).all()).toEqual([])
      const { n, max } = db.query('SELECT count(*) AS n, max(id) AS max FROM job').get() as { n: number; max: number }
      expect(n).toBe(max)
      expect(n).toBeGreaterThanOrEqual(2000)
      counts.push(n)
      db.close()
    }
    // Each copy is the database at the moment it was taken, while the writer went on.
    expect(counts[1]).toBeGreaterThan(counts[0])
  })

  test('never overwrites a file, and needs a database to copy', async () => {
    const dir = tempDir()
    const config = writeSiteConfig(dir)
    const missing = await cli(['backup', join(dir, 'copy.db'), '--config', config])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe(`votelist backup: no database at ${join(dir, 'data/votelist.db')}`)
    expect((await cli(['migrate', '--config', config])).code).toBe(0)
    writeFileSync(join(dir, 'exists.db'), 'precious')
    const taken = await cli(['backup', 'exists.db', '--config', config], { cwd: dir })
    expect(taken.code).toBe(1)
    expect(taken.stderr).toContain('exists.db already exists; choose a new file')
    expect(await Bun.file(join(dir, 'exists.db')).text()).toBe('precious')
  })

  // It holds the password hashes, the site's secret (sessions, tokens) and webhook secrets.
  test('the copy is readable by its owner only, whatever the umask of the shell that ran it', async () => {
    const dir = tempDir()
    const config = writeSiteConfig(dir)
    expect((await cli(['migrate', '--config', config])).code).toBe(0)
    const target = join(dir, 'copy.db')
    const r = await runChild(['sh', '-c', 'umask 022; exec "$@"', 'sh', process.execPath, mainScript, 'backup', target, '--config', config])
    expect(r).toEqual({ code: 0, stdout: target, stderr: '' })
    expect((statSync(target).mode & 0o777).toString(8)).toBe('600')
  })

  // Ctrl-C at the terminal, the service manager's SIGTERM, a closed SSH session's SIGHUP: a copy
  // of a large database takes a while, and half of one (hidden, as big as the database) must not
  // stay behind in the backup folder.
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    test(`interrupted by ${signal} half-way: exit ${code}, one line, and nothing left in the folder`, async () => {
      const { config, out } = await largeSite()
      const child = spawnChild([process.execPath, mainScript, 'backup', join(out, 'copy.db'), '--config', config])
      await until(() => readdirSync(out).length > 0, 'the backup to begin writing')
      child.proc.kill(signal)
      const exit = await child.exited
      expect({ exit, stdout: child.out, stderr: child.err, left: readdirSync(out) })
        .toEqual({ exit: code, stdout: [], stderr: [`votelist backup: interrupted by ${signal}: no backup was written`], left: [] })
    })
  }

  // kill -9 runs no handler: the half copy stays. The next backup into that folder removes it, and
  // leaves alone the one of a backup still at work (here stopped with SIGSTOP, so that it stays).
  test('the next backup into the folder removes what a killed backup left, not what a live one is writing', async () => {
    const { config, out } = await largeSite()
    const backup = (name: string) => spawnChild([process.execPath, mainScript, 'backup', join(out, name), '--config', config])
    const partials = (name: string) => readdirSync(out).filter((f) => f.startsWith(`.${name}.partial-`))

    const killed = backup('killed.db')
    await until(() => partials('killed.db').length > 0, 'the killed backup to begin writing')
    killed.proc.kill('SIGKILL')
    await killed.exited
    const live = backup('live.db')
    await until(() => partials('live.db').length > 0, 'the live backup to begin writing')
    live.proc.kill('SIGSTOP')
    try {
      const next = await cli(['backup', join(out, 'next.db'), '--config', config])
      expect(next.code).toBe(0)
      expect(readdirSync(out).sort()).toEqual([...partials('live.db'), 'next.db'])
    } finally {
      live.proc.kill('SIGCONT')
    }
    expect(await live.exited).toBe(0)
    expect(readdirSync(out).sort()).toEqual(['live.db', 'next.db'])
  }, 60_000)

  // nohup (and a shell's background job, for SIGINT) starts a command with the signal ignored, so
  // that a closed session does not stop it: the backup must go on to the end.
  test('a signal it was started ignoring (nohup) stays ignored: the backup goes on and is whole', async () => {
    const { config, out } = await largeSite()
    const target = join(out, 'copy.db')
    const child = spawnChild(['sh', '-c', 'trap "" HUP; exec "$@"', 'sh', process.execPath, mainScript, 'backup', target, '--config', config])
    await until(() => readdirSync(out).length > 0, 'the backup to begin writing')
    child.proc.kill('SIGHUP')
    const exit = await child.exited
    expect({ exit, stdout: child.out, stderr: child.err, left: readdirSync(out) }).toEqual({ exit: 0, stdout: [target], stderr: [], left: ['copy.db'] })
    const copy = new Database(target, { readonly: true })
    expect(copy.query('SELECT count(*) AS n FROM filler').get()).toEqual({ n: 2048 })
    copy.close()
  })

  // A backup that could not be written whole leaves nothing at its path: a file there would
  // pass for a backup, and would make the next try refuse ("already exists").
  describe('a backup that cannot be written: one line, the exit code of its cause, no file left', () => {
    async function migratedSite() {
      const dir = tempDir()
      const config = writeSiteConfig(dir)
      expect((await cli(['migrate', '--config', config])).code).toBe(0)
      return { dir, config }
    }
    const expectOneLine = (r: { code: number; stdout: string; stderr: string }, code: number) => {
      expect({ code: r.code, stdout: r.stdout, lines: r.stderr.split('\n').length }).toEqual({ code, stdout: '', lines: 1 })
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }

    test('into a folder that does not exist: exit 1, naming the folder', async () => {
      const { dir, config } = await migratedSite()
      const target = join(dir, 'no-such-folder/copy.db')
      const r = await cli(['backup', target, '--config', config])
      expectOneLine(r, 1)
      expect(r.stderr).toBe(`votelist backup: cannot write the backup ${target}: the folder ${join(dir, 'no-such-folder')} does not exist`)
    })

    test('past the file size limit (RLIMIT_FSIZE): exit 74, and no file at the path or beside it', async () => {
      const { dir, config } = await migratedSite()
      const out = join(dir, 'out')
      mkdirSync(out)
      const target = join(out, 'copy.db')
      // With SIGXFSZ ignored (kept across exec), a write past the limit fails with EFBIG.
      const r = await runChild(['sh', '-c', 'trap "" XFSZ; exec prlimit --fsize=100000 "$@"', 'sh', process.execPath, mainScript, 'backup', target, '--config', config])
      expectOneLine(r, 74)
      expect(r.stderr).toMatch(new RegExp(`^votelist backup: cannot write the backup ${target}: disk I/O error \\(SQLITE_IOERR\\w*\\)$`))
      expect(readdirSync(out)).toEqual([])
      // The next try, with room, writes it.
      expect(await cli(['backup', target, '--config', config])).toEqual({ code: 0, stdout: target, stderr: '' })
    })

    // A 64 KiB tmpfs over the backup's folder, mounted in a user namespace of the command alone.
    const tmpfs = Bun.spawnSync(['unshare', '-Urm', 'true']).exitCode === 0
    test.skipIf(!tmpfs)('on a full disk: exit 74, saying which disk, and no file left', async () => {
      const { dir, config } = await migratedSite()
      const out = join(dir, 'out')
      mkdirSync(out)
      const target = join(out, 'copy.db')
      // The folder's listing after the command (on stdout, which must stay empty) shows what it left.
      const r = await runChild(['unshare', '-Urm', 'sh', '-c', 'mount -t tmpfs -o size=64k votelist-test "$0" || exit 9; "$@"; code=$?; ls -A "$0"; exit $code', out,
        process.execPath, mainScript, 'backup', target, '--config', config])
      expectOneLine(r, 74)
      expect(r.stderr).toBe(`votelist backup: the disk holding ${out} is full: the backup ${target} was not written`)
    })
  })
})
