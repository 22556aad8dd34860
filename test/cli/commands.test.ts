import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { chownSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { EXIT, runCli } from '../../src/cli.ts'
import { loadConfig } from '../../src/config/load.ts'
import { migrations } from '../../src/db/migrations.ts'
import { sha256Hex } from '../../src/ids.ts'
import { VERSION } from '../../src/version.ts'
import { cleanupTemp, tempDir, testLookup } from '../helpers.ts'
import { cli, killChildren, listeningUrl, mainScript, runChild, spawnChild } from '../spawn.ts'

afterAll(() => { killChildren(); cleanupTemp() })

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

// The command line in this process: exit code and printed lines.
async function run(argv: string[], cwd = tempDir()) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), cwd, lookup: testLookup })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

// A folder with a votelist.toml (database in ./data), as an admin would have it.
function site(extra = '') {
  const dir = tempDir()
  writeFileSync(join(dir, 'votelist.toml'), `[site]\nservice_name = "CliTest"\n${extra}`)
  return { dir, config: join(dir, 'votelist.toml'), db: join(dir, 'data/votelist.db') }
}

describe('version and help', () => {
  for (const argv of [['version'], ['--version']]) {
    test(`${argv.join(' ')} prints the version alone`, async () => {
      expect(await run(argv)).toEqual({ code: 0, out: VERSION, err: '' })
    })
  }
  for (const argv of [['help'], ['--help'], ['-h']]) {
    test(`${argv.join(' ')} prints usage naming every command and the exit codes`, async () => {
      const { code, out } = await run(argv)
      expect(code).toBe(0)
      for (const c of ['serve', 'migrate', 'user add', 'server add', 'key create', 'backup', 'db copy', 'config check', 'config example', 'health', 'version']) {
        expect(out).toContain(`votelist ${c}`)
      }
      expect(out).toContain('78 bad configuration')
      expect(out).toContain('129/130/143 backup stopped by SIGHUP/SIGINT/SIGTERM (nothing left)')
    })
  }
})

describe('usage errors exit 2 with a clear message', () => {
  const cases: [string[], string][] = [
    [['frobnicate'], 'unknown command "frobnicate"'],
    // Names of Object.prototype members are unknown commands like any other.
    [['constructor'], 'unknown command "constructor"'],
    [['toString'], 'unknown command "toString"'],
    [['__proto__'], 'unknown command "__proto__"'],
    [['hasOwnProperty'], 'unknown command "hasOwnProperty"'],
    [['--port', '80'], "Unknown option '--port'"],
    [['serve', 'now'], "Unexpected argument 'now'"],
    [['migrate', '--force'], "Unknown option '--force'"],
    [['user'], 'usage: votelist user add'],
    [['user', 'remove'], 'usage: votelist user add'],
    [['user', 'add', '--password', 'x'], '--email is required'],
    [['user', 'add', '--email', 'a@example.com'], '--password is required'],
    [['user', 'add', '--email', 'a@example.com', '--password'], "Option '--password <value>' argument missing"],
    [['user', 'add', '--email', 'not-an-email', '--password', 'long enough pass'], 'email must be a valid e-mail address'],
    [['user', 'add', '--email', 'a@example.com', '--password', 'short'], 'password must be 8 to 256 characters long'],
    [['user', 'add', '--email', 'a@example.com', '--password', '          '], 'password must not be only whitespace'],
    [['server', 'add', '--owner', 'a@example.com', '--name', 'N'], '--host is required'],
    [['server', 'add', '--owner', 'a@example.com', '--name', 'N', '--host', 'h.example.com', '--port', 'x'], '--port must be an integer'],
    [['server', 'list'], 'usage: votelist server add'],
    [['key', 'create'], '--server is required'],
    [['key', 'revoke', '--server', 's'], 'usage: votelist key create'],
    [['backup'], 'usage: votelist backup FILE'],
    [['backup', 'a.db', 'b.db'], 'unexpected argument "b.db"'],
    [['version', 'extra'], "Unexpected argument 'extra'"],
    [['config'], 'usage: votelist config check'],
    [['config', 'example', '--database', ''], '--database must not be empty'],
    // `--config=$CONFIG` with the variable unset: not the working folder read as a config file.
    [['--config='], '--config must not be empty'],
    [['migrate', '--config', ''], '--config must not be empty'],
    [['config', 'check', '--config='], '--config must not be empty'],
  ]
  for (const [argv, message] of cases) {
    test(`${argv.join(' ') || '(none)'} → 2: ${message}`, async () => {
      const { code, out, err } = await run(argv)
      expect(code).toBe(EXIT.usage)
      expect(out).toBe('')
      expect(err).toContain(message)
    })
  }

  test('argument values the service refuses are usage errors too', async () => {
    const s = site()
    expect((await run(['user', 'add', '--email', 'o@example.com', '--password', 'correct horse battery', '--config', s.config])).code).toBe(0)
    const base = ['server', 'add', '--owner', 'o@example.com', '--name', 'Valley', '--config', s.config]
    for (const [extra, message] of [
      [['--host', 'play.example.com', '--edition', 'pocket'], 'edition must be "java" or "bedrock"'],
      [['--host', 'play.example.com', '--port', '70000'], 'port must be an integer from 1 to 65535'],
      [['--host', '10.0.0.5'], 'host 10.0.0.5 is a private (RFC 1918) address: votelist only lists public servers'],
      [['--host', 'play.example.com', '--slug', 'Bad Slug'], 'slug must be 1 to 48'],
    ] as const) {
      const r = await run([...base, ...extra])
      expect(r.code).toBe(EXIT.usage)
      expect(r.err).toContain(message)
    }
  })

  test('the real process exits with the code, not just the function', async () => {
    const r = await cli(['user', 'add'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--email is required')
  })
})

describe('a bad configuration stops every command with exit 78 and one line naming the key', () => {
  const cases: [string, string][] = [
    ['[http]\nprot = 8080\n', 'http.prot: unknown key'],
    ['[votes]\ncaptcha = true\n', 'votes.captcha: must be one of "pow", "off"'],
    ['[http]\nport = "8080"\n', 'http.port: must be an integer (got "8080")'],
    ['[http]\nport = 65536\n', 'http.port: must be from 0 to 65535 (got 65536)'],
    ['[limits]\nkeyed_per_minute = 1.5\n', 'limits.keyed_per_minute: must be an integer'],
    ['[deliveries]\nretry_delays = ["1m", "soon"]\n', 'deliveries.retry_delays[1]: must be a duration'],
    ['[smtp]\nhost = "x"\n', 'smtp: unknown section'],
    ['[http\n', 'not valid TOML'],
  ]
  for (const [toml, message] of cases) {
    for (const argv of [['serve'], ['migrate'], ['config', 'check'], ['key', 'create', '--server', 'x'], ['backup', 'copy.db'], ['health']]) {
      test(`${argv.join(' ')} with ${JSON.stringify(toml)}`, async () => {
        const dir = tempDir()
        writeFileSync(join(dir, 'bad.toml'), toml)
        const r = await run([...argv, '--config', join(dir, 'bad.toml')], dir)
        expect(r.code).toBe(EXIT.config)
        expect(r.err.split('\n')).toHaveLength(1)
        expect(r.err).toStartWith(`votelist: configuration error: ${join(dir, 'bad.toml')}: `)
        expect(r.err).toContain(message)
      })
    }
  }

  test('--config naming a missing file is a configuration error; ./votelist.toml is read by default', async () => {
    const dir = tempDir()
    const missing = await run(['config', 'check', '--config', 'nope.toml'], dir)
    expect(missing).toMatchObject({ code: 78, err: 'votelist: configuration error: nope.toml: config file not found' })
    writeFileSync(join(dir, 'votelist.toml'), '[http]\nport = -5\n')
    const implicit = await cli(['migrate'], { cwd: dir })
    expect(implicit.code).toBe(78)
    expect(implicit.stderr).toBe(`votelist: configuration error: ${join(dir, 'votelist.toml')}: http.port: must be from 0 to 65535 (got -5)`)
  })
})

describe('serve', () => {
  test('a port already in use: exit 1 naming the address and the keys to change', async () => {
    const taken = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('busy') })
    try {
      const s = site(`[http]\nhost = "127.0.0.1"\nport = ${taken.port}\n`)
      const r = await cli(['serve', '--config', s.config])
      expect(r.code).toBe(EXIT.failure)
      expect(r.stderr).toStartWith(`votelist serve: cannot listen on 127.0.0.1:${taken.port}: `)
      expect(r.stderr).toEndWith('(http.host / http.port)')
    } finally {
      taken.stop(true)
    }
  })
})

describe('migrate', () => {
  test('applies every migration once, then reports the database up to date', async () => {
    const s = site()
    const first = await run(['migrate', '--config', s.config])
    expect(first).toEqual({ code: 0, out: `applied ${migrations.map((m) => m.name).join(', ')}`, err: '' })
    expect(await run(['migrate', '--config', s.config])).toEqual({ code: 0, out: 'database is up to date', err: '' })
  })

  test('refuses a database written by a newer votelist', async () => {
    const s = site()
    await run(['migrate', '--config', s.config])
    const db = new Database(s.db)
    db.run("INSERT INTO schema_migration (name, applied_at) VALUES ('9999_future', 0)")
    db.close()
    const r = await run(['migrate', '--config', s.config])
    expect(r.code).toBe(EXIT.failure)
    expect(r.err).toContain('9999_future')
    expect(r.err).toContain('newer version')
  })
})

// Many tools take their global options before the command (`git -C DIR status`): an admin who
// types `votelist --config FILE backup …` means that command on that configuration.
describe('--config before the command', () => {
  test('is read as if it came after it', async () => {
    const s = site()
    const migrated = await run(['--config', s.config, 'migrate'])
    expect(migrated).toEqual({ code: 0, out: `applied ${migrations.map((m) => m.name).join(', ')}`, err: '' })
    const copy = join(s.dir, 'copy.db')
    expect(await run([`--config=${s.config}`, 'backup', copy])).toEqual({ code: 0, out: copy, err: '' })
    expect(await run(['--config', s.config, 'config', 'check'])).toEqual({ code: 0, out: `configuration is valid (${s.config}); database: ${s.db}`, err: '' })
  })
})

describe('user add, server add and key create from the shell', () => {
  // Run without --config in the wrong folder (or with the wrong --config), they would create and
  // migrate a new, empty database there, then say there is no such server or account.
  test('server add and key create need an existing database, and say which one they looked for', async () => {
    const dir = tempDir()
    const key = await run(['key', 'create', '--server', 'valley'], dir)
    expect(key).toEqual({ code: 1, out: '', err: `votelist key: no database at ${join(dir, 'data/votelist.db')}: no --config was given and there is no ./votelist.toml in ${dir}, so the built-in default was used; give --config FILE` })
    const s = site()
    const server = await run(['server', 'add', '--owner', 'o@example.com', '--name', 'Valley', '--host', 'play.example.com', '--config', s.config])
    expect(server).toEqual({ code: 1, out: '', err: `votelist server: no database at ${s.db}` })
    expect(readdirSync(dir)).toEqual([])
    expect(readdirSync(s.dir)).toEqual(['votelist.toml'])
  })

  // Without --config, in a folder without votelist.toml, the built-in default database is used: a
  // forgotten --config (`sudo -u votelist votelist user add …` in /var/lib/votelist) makes a new,
  // empty site there, and the account lands in it rather than in the site's, with a success.
  // A first account may create the database (the quick start), but the command says so.
  test('user add that creates a database on the built-in default says where, and how to reach the site\'s', async () => {
    const dir = tempDir()
    const first = await run(['user', 'add', '--email', 'a@example.com', '--password', 'correct horse battery'], dir)
    expect({ code: first.code, err: first.err }).toEqual({
      code: 0,
      err: `votelist user: created a new database at ${join(dir, 'data/votelist.db')}: no --config was given and there is no ./votelist.toml in ${dir}, so the built-in default was used; give --config FILE to add accounts to an existing site`,
    })
    // That database now exists: the next account goes into it without a word.
    expect(await run(['user', 'add', '--email', 'b@example.com', '--password', 'correct horse battery'], dir)).toMatchObject({ code: 0, err: '' })
  })

  test('user add refuses a bad e-mail address or password before it creates any database', async () => {
    const dir = tempDir()
    const email = await run(['user', 'add', '--email', 'not-an-email', '--password', 'long enough pass'], dir)
    expect(email).toMatchObject({ code: EXIT.usage, out: '' })
    expect(email.err).toContain('email must be a valid e-mail address')
    const password = await run(['user', 'add', '--email', 'a@example.com', '--password', 'short'], dir)
    expect(password).toMatchObject({ code: EXIT.usage, out: '' })
    expect(password.err).toContain('password must be 8 to 256 characters long')
    expect(readdirSync(dir)).toEqual([])
  })

  test('create an owner (password on stdin), a server and a key; the key is stored as its SHA-256', async () => {
    // Private targets allowed: the child process then makes no save-time DNS lookup of the host
    // (tests never ask a real DNS server; the rule itself is tested in servers/host-rule.test.ts).
    const s = site('[network]\nallow_private_targets = true\n')
    const user = await cli(['user', 'add', '--email', 'Owner@Example.com', '--password', '-', '--config', s.config], { stdin: 'a long passphrase with spaces\n' })
    expect(user.code).toBe(0)
    const created = JSON.parse(user.stdout)
    expect(created).toMatchObject({ email: 'Owner@Example.com', isAdmin: true })
    expect(user.stdout).not.toContain('passphrase')

    const server = await cli(['server', 'add', '--owner', 'owner@example.com', '--name', 'Émeraude Valley', '--host', 'play.example.com',
      '--port', '25566', '--edition', 'bedrock', '--config', s.config])
    expect(server.code).toBe(0)
    const srv = JSON.parse(server.stdout)
    expect(srv).toMatchObject({ slug: 'emeraude-valley', name: 'Émeraude Valley', host: 'play.example.com', port: 25566, edition: 'bedrock', ownerId: created.id })
    expect(srv.createdAt).toMatch(ISO)

    const key = await cli(['key', 'create', '--server', 'emeraude-valley', '--config', s.config])
    expect(key.code).toBe(0)
    expect(key.stdout).toMatch(/^vlk_[A-Za-z0-9_-]{32}$/)
    expect(key.stderr).toBe('')

    const db = new Database(s.db, { readonly: true })
    const stored = db.query('SELECT server_id AS serverId, hash, prefix FROM api_key').all()
    const hash = (db.query('SELECT password_hash AS h FROM user WHERE id = ?').get(created.id) as { h: string }).h
    db.close()
    expect(stored).toEqual([{ serverId: srv.id, hash: sha256Hex(key.stdout), prefix: key.stdout.slice(0, 8) }])
    // The password came from stdin without its line ending.
    expect(await Bun.password.verify('a long passphrase with spaces', hash)).toBe(true)
  })

  // The database holds the password hashes and the site's secret, which signs sessions: with a
  // shell's umask (022) every user of the machine could read them, and forge an administrator's
  // session. (install.sh's data folder is closed, but `bun start`, a binary run by hand or a
  // container's volume are not.)
  test('the database a command creates, its -wal and -shm and its data folder are its user\'s alone, whatever the umask', async () => {
    const s = site('[http]\nhost = "127.0.0.1"\nport = 0\n')
    const withUmask = (args: string[]) => ['sh', '-c', 'umask 022; exec "$@"', 'sh', process.execPath, mainScript, ...args, '--config', s.config]
    const user = await runChild(withUmask(['user', 'add', '--email', 'a@example.com', '--password', '-']), { stdin: 'correct horse battery\n' })
    expect(user.code).toBe(0)
    const serve = spawnChild(withUmask(['serve']))
    await listeningUrl(serve)
    const mode = (name: string) => (statSync(join(s.dir, 'data', name)).mode & 0o777).toString(8)
    const modes = { data: mode(''), db: mode('votelist.db'), wal: mode('votelist.db-wal'), shm: mode('votelist.db-shm') }
    serve.proc.kill('SIGTERM')
    expect(await serve.exited).toBe(0)
    expect(modes).toEqual({ data: '700', db: '600', wal: '600', shm: '600' })
  })

  test('a password of only whitespace on stdin is refused (exit 2) and no account is made', async () => {
    const s = site()
    expect((await run(['migrate', '--config', s.config])).code).toBe(0)
    const r = await cli(['user', 'add', '--email', 'blank@example.com', '--password', '-', '--config', s.config], { stdin: ' \t        \n' })
    expect(r).toEqual({ code: EXIT.usage, stdout: '', stderr: 'votelist user: password must not be only whitespace: use at least one visible character' })
    const db = new Database(s.db, { readonly: true })
    expect(db.query('SELECT count(*) AS n FROM user').get()).toEqual({ n: 0 })
    db.close()
  })

  test('every time a command prints is ISO 8601 (UTC, milliseconds), as in the API; never epoch milliseconds', async () => {
    const s = site()
    const c = ['--config', s.config]
    const outputs = [
      await run(['migrate', ...c]),
      await run(['user', 'add', '--email', 'owner@example.com', '--password', 'correct horse battery', ...c]),
      await run(['server', 'add', '--owner', 'owner@example.com', '--name', 'Valley', '--host', '8.8.8.8', ...c]),
      await run(['key', 'create', '--server', 'valley', ...c]),
      await run(['backup', join(s.dir, 'copy.db'), ...c]),
      await run(['config', 'check', ...c]),
      await run(['version']),
    ]
    expect(outputs.map((o) => o.code)).toEqual(outputs.map(() => 0))
    const [, user, server] = outputs.map((o) => o.out)
    expect(Object.keys(JSON.parse(user))).toEqual(['id', 'email', 'isAdmin', 'createdAt'])
    expect(JSON.parse(user).createdAt).toMatch(ISO)
    expect(JSON.parse(server)).toMatchObject({ createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) })
    // No number that could be a time in milliseconds (2001–2286) anywhere in any output.
    for (const o of outputs) expect(o.out).not.toMatch(/(?<![\w-])\d{12,13}(?![\w-])/)
  })

  test('the second account is not an admin unless --admin; --admin makes one', async () => {
    const s = site()
    const add = (email: string, ...flags: string[]) => run(['user', 'add', '--email', email, '--password', 'correct horse battery', ...flags, '--config', s.config])
    expect(JSON.parse((await add('first@example.com')).out).isAdmin).toBe(true)
    expect(JSON.parse((await add('second@example.com')).out).isAdmin).toBe(false)
    expect(JSON.parse((await add('third@example.com', '--admin')).out).isAdmin).toBe(true)
  })

  test('refusals exit 1 and say why: e-mail taken, unknown owner, slug taken, unknown server', async () => {
    const s = site()
    const c = ['--config', s.config]
    await run(['user', 'add', '--email', 'o@example.com', '--password', 'correct horse battery', ...c])
    const cases: [string[], string][] = [
      [['user', 'add', '--email', 'O@example.com', '--password', 'correct horse battery'], 'already registered'],
      [['server', 'add', '--owner', 'nobody@example.com', '--name', 'X', '--host', 'x.example.com'], 'no account with the e-mail address nobody@example.com'],
      [['key', 'create', '--server', 'missing'], 'no server with the slug missing'],
    ]
    expect((await run(['server', 'add', '--owner', 'o@example.com', '--name', 'X', '--host', 'x.example.com', '--slug', 'taken', ...c])).code).toBe(0)
    cases.push([['server', 'add', '--owner', 'o@example.com', '--name', 'Y', '--host', 'y.example.com', '--slug', 'taken'], 'the slug "taken" is taken'])
    for (const [argv, message] of cases) {
      const r = await run([...argv, ...c])
      expect(r.code).toBe(EXIT.failure)
      expect(r.out).toBe('')
      expect(r.err).toContain(message)
    }
  })

  test('server add finds the owner as user add wrote it: surrounding spaces and any case', async () => {
    const s = site()
    const c = ['--config', s.config]
    await run(['user', 'add', '--email', ' o@example.com ', '--password', 'correct horse battery', ...c])
    const r = await run(['server', 'add', '--owner', ' O@example.com\t', '--name', 'Pasted', '--host', 'x.example.com', ...c])
    expect([r.code, r.err]).toEqual([0, ''])
    expect(JSON.parse(r.out).slug).toBe('pasted')
  })
})

describe('config', () => {
  test('check accepts a good file and says which database it uses', async () => {
    const s = site('[database]\npath = "db/site.db"\n')
    expect(await run(['config', 'check', '--config', s.config])).toEqual({
      code: 0, out: `configuration is valid (${s.config}); database: ${join(s.dir, 'db/site.db')}`, err: '',
    })
  })

  // Bun's TOML parser gives these names as own keys of plain objects; each is also a member of
  // Object.prototype, which an `in` check would have taken for a known key and ignored.
  const inherited: [string, string][] = [
    ['[site]\nconstructor = "x"\n', 'site.constructor: unknown key (known in [site]: base_url,'],
    ['[http]\ntoString = 1\n', 'http.toString: unknown key (known in [http]: host,'],
    ['[http]\nhasOwnProperty = true\n', 'http.hasOwnProperty: unknown key'],
    ['[site]\n__proto__ = "x"\n', 'site.__proto__: unknown key'],
    ['[site]\n"__proto__" = { name = "x" }\n', 'site.__proto__: unknown key'],
    ['[site.__proto__]\nname = "x"\n', 'site.__proto__: unknown key'],
    ['[__proto__]\nport = 1\n', '__proto__: unknown section (known: site, http,'],
    ['__proto__ = { http = { port = 1 } }\n', '__proto__: unknown section'],
    ['[constructor]\n', 'constructor: unknown section'],
    ['valueOf = 1\n', 'valueOf: unknown section'],
  ]
  for (const [toml, message] of inherited) {
    test(`check stops at ${JSON.stringify(toml)}: exit 78, "${message}…"`, async () => {
      const dir = tempDir()
      writeFileSync(join(dir, 'votelist.toml'), toml)
      const r = await run(['config', 'check', '--config', 'votelist.toml'], dir)
      expect(r).toMatchObject({ code: EXIT.config, out: '' })
      expect(r.err).toStartWith(`votelist: configuration error: ${join(dir, 'votelist.toml')}: ${message}`)
      expect(r.err.split('\n')).toHaveLength(1)
    })
  }

  test('serve stops at a [__proto__] table like at any unknown section (the real process)', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'votelist.toml'), '[http]\nhost = "127.0.0.1"\nport = 0\n[__proto__]\nport = 1\n')
    const r = await cli(['serve'], { cwd: dir })
    expect(r.code).toBe(EXIT.config)
    expect(r.stderr).toStartWith(`votelist: configuration error: ${join(dir, 'votelist.toml')}: __proto__: unknown section`)
  })

  test('example is a valid votelist.toml equal to the defaults, with --database as its one set key', async () => {
    const dir = tempDir()
    const plain = await run(['config', 'example'])
    writeFileSync(join(dir, 'plain.toml'), plain.out)
    expect(JSON.stringify(loadConfig('plain.toml', dir))).toBe(JSON.stringify({ ...loadConfig(undefined, dir), source: join(dir, 'plain.toml') }))
    const set = await run(['config', 'example', '--database', '/var/lib/votelist/votelist.db'])
    writeFileSync(join(dir, 'set.toml'), set.out)
    expect(loadConfig('set.toml', dir).database.path).toBe('/var/lib/votelist/votelist.db')
    expect(set.out.split('\n').filter((l) => l && !l.startsWith('#') && !l.startsWith('['))).toEqual(['path = "/var/lib/votelist/votelist.db"'])
  })
})

describe('run as root beside a site that belongs to another user', () => {
  const root = process.getuid?.() === 0
  if (!root) console.log('commands.test.ts: skipping the foreign-owner checks: they need root')
  test.skipIf(!root)('commands refuse to create root-owned files in the site user\'s data folder, and name that user', async () => {
    const s = site()
    mkdirSync(join(s.dir, 'data'))
    chownSync(join(s.dir, 'data'), 65534, 65534)
    for (const argv of [['migrate'], ['user', 'add', '--email', 'a@example.com', '--password', 'correct horse battery'], ['key', 'create', '--server', 'x'], ['backup', join(s.dir, 'b.db')]]) {
      const r = await run([...argv, '--config', s.config])
      expect(r.code).toBe(EXIT.failure)
      expect(r.err).toMatch(/data belongs to (nobody|65534), not root: run this as that user \(sudo -u (nobody|65534) votelist …\)/)
    }
    expect(readdirSync(join(s.dir, 'data'))).toEqual([])
    chownSync(join(s.dir, 'data'), 0, 0)
    expect((await run(['migrate', '--config', s.config])).code).toBe(0)
  })
})
