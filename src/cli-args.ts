// The command line's options, read as node:util's parseArgs reads them (strict, long options of
// type string or boolean, positionals where allowed). The usual forms (`--name value`,
// `--name=value`, `--flag`, plain positionals) are read here; anything else (`--`, a short
// option, an unknown or misused option, a value that looks like an option) goes to parseArgs
// itself, required only then, which reads it or gives its own message. node:util took 2.5-3 ms
// of every start. test/cli/args.test.ts holds the two readings to the same answers.

export type Flags = Record<string, { type: 'string' | 'boolean' }>

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>
  positionals: string[]
}

export function parseFlags(args: string[], options: Flags, allowPositionals: boolean): ParsedArgs {
  return usualForms(args, options, allowPositionals) ?? nodeParseArgs(args, options, allowPositionals)
}

// Throws parseArgs' own errors.
export function nodeParseArgs(args: string[], options: Flags, allowPositionals: boolean): ParsedArgs {
  const { parseArgs } = require('node:util') as typeof import('node:util')
  const { values, positionals } = parseArgs({ args, options, allowPositionals, strict: true })
  return { values: values as ParsedArgs['values'], positionals }
}

// The reading of `args` when every one of them is in a usual form; null otherwise.
function usualForms(args: string[], options: Flags, allowPositionals: boolean): ParsedArgs | null {
  const values: ParsedArgs['values'] = Object.create(null)
  const positionals: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (!arg.startsWith('-') || arg === '-') {
      if (!allowPositionals) return null
      positionals.push(arg)
      continue
    }
    if (!arg.startsWith('--') || arg === '--') return null
    const eq = arg.indexOf('=')
    const name = arg.slice(2, eq < 0 ? undefined : eq)
    const type = Object.hasOwn(options, name) ? options[name].type : null
    if (type === 'boolean' && eq < 0) values[name] = true
    else if (type === 'string' && eq >= 0) values[name] = arg.slice(eq + 1)
    else if (type === 'string' && i + 1 < args.length && !(args[i + 1].length > 1 && args[i + 1].startsWith('-'))) values[name] = args[++i]
    else return null
  }
  return { values, positionals }
}
