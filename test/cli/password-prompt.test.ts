import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { cli, killChildren, mainScript, runChild } from '../spawn.ts'

afterAll(() => { killChildren(); cleanupTemp() })

function site() {
  const dir = tempDir()
  const config = join(dir, 'votelist.toml')
  writeFileSync(config, '[site]\nservice_name = "CliTest"\n')
  return { config, db: join(dir, 'data/votelist.db') }
}

async function passwordOf(db: string, email: string, password: string) {
  const d = new Database(db, { readonly: true })
  const { h } = d.query('SELECT password_hash AS h FROM user WHERE email = ?').get(email) as { h: string }
  d.close()
  return Bun.password.verify(password, h)
}

// `--password -` is what the install steps tell the admin to type at a shell.
describe('user add --password - reads one line', () => {
  const python = Bun.which('python3')
  test.skipIf(!python)('from a terminal: asks for it, does not show it, and goes on at Enter (no Ctrl-D needed)', async () => {
    const s = site()
    const r = await runChild([python!, join(import.meta.dir, '../harness/pty-run.py'), 'Password for admin@example.com: ', 'typed at a terminal\r',
      process.execPath, mainScript, 'user', 'add', '--email', 'admin@example.com', '--password', '-', '--config', s.config])
    const { code, output } = JSON.parse(r.stdout) as { code: number; output: string }
    expect(code).toBe(0)
    expect(output).toStartWith('Password for admin@example.com: ')
    expect(output).not.toContain('typed at a terminal')
    expect(JSON.parse(output.slice(output.indexOf('{')))).toMatchObject({ email: 'admin@example.com', isAdmin: true })
    expect(await passwordOf(s.db, 'admin@example.com', 'typed at a terminal')).toBe(true)
  })

  test('from a pipe or a file: the first line, without its line ending, and no prompt', async () => {
    const s = site()
    const r = await cli(['user', 'add', '--email', 'o@example.com', '--password', '-', '--config', s.config], { stdin: 'first line here\r\n\nsecond line\n' })
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    expect(await passwordOf(s.db, 'o@example.com', 'first line here')).toBe(true)
  })
})
