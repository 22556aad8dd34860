import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { nodeParseArgs, parseFlags, type Flags } from '../../src/cli-args.ts'

// The command line is read without node:util in its usual forms; every reading must be the one
// parseArgs gives (strict), values, positionals and error messages alike.
const outcome = (read: () => unknown) => {
  try {
    return { read: read() }
  } catch (e) {
    return { error: (e as Error).message }
  }
}

const OPTIONS: Flags = { config: { type: 'string' }, email: { type: 'string' }, admin: { type: 'boolean' }, port: { type: 'string' } }

test('the command line reads as parseArgs reads it', () => {
  const same = (args: string[], allowPositionals: boolean) => {
    expect({ args, ...outcome(() => parseFlags(args, OPTIONS, allowPositionals)) })
      .toEqual({ args, ...outcome(() => nodeParseArgs(args, OPTIONS, allowPositionals)) })
  }
  for (const args of [
    [], ['--config', 'a.toml'], ['--config=a.toml'], ['--config', '-'], ['--config', '-x'], ['--config', '--'], ['--config'],
    ['--admin'], ['--admin=1'], ['--admin', 'x'], ['--port', '80', '--port', '81'], ['--nope'], ['--nope=1'], ['--'], ['--', '-x'],
    ['-x'], ['-abc'], ['-'], ['pos'], ['pos', '--config', 'a'], ['--=x'], ['--__proto__', 'x'], ['--constructor'], ['--config=', 'x'],
    ['--email', 'a@example.com', '--admin', 'extra'], ['--no-admin'],
  ]) for (const allow of [false, true]) same(args, allow)
  const token = fc.constantFrom('--config', '--config=x', '--email', '--admin', '--admin=', '--port', '--port=', '--nope', '--', '-', '-x',
    '-ac', 'value', 'a.toml', '', '--=', '--EMAIL', '---config')
  fc.assert(fc.property(fc.array(fc.oneof(token, fc.string({ maxLength: 4 })), { maxLength: 6 }), fc.boolean(), same), { numRuns: 3000 })
})
