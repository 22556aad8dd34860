import { configSchema, tomlDefault, type Field } from './schema.ts'

// Both documents are written from the one schema, so neither can drift from what the loader
// accepts: the commented votelist.toml that install.sh puts in /etc/votelist, and docs/configuration.md's
// configuration reference (test/config/reference.test.ts keeps that page in step).

const sections = () => Object.entries(configSchema as unknown as Record<string, Record<string, Field<unknown>>>)

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  if (line) lines.push(line)
  return lines
}

// Every key with its doc and its default, commented out so that a later version's defaults apply
// unless the admin chose a value. `set` holds keys written as active lines, as TOML literals
// keyed "section.key" (install.sh sets database.path this way).
export function exampleToml(set: Record<string, string> = {}): string {
  const known = new Set(sections().flatMap(([name, fields]) => Object.keys(fields).map((k) => `${name}.${k}`)))
  for (const key of Object.keys(set)) if (!known.has(key)) throw new Error(`exampleToml: unknown key ${key}`)
  const out = [
    '# votelist configuration. Every key is listed with its meaning and its built-in default,',
    '# commented out: uncomment a line to change it. Durations are written "30s", "5m" or "2h".',
    '# Relative paths are relative to this file\'s folder. Check a change with',
    '# `votelist config check --config FILE` before restarting the service.',
  ]
  for (const [name, fields] of sections()) {
    out.push('', `[${name}]`)
    Object.entries(fields).forEach(([key, field], i) => {
      if (i > 0) out.push('')
      for (const line of wrap(field.doc, 96)) out.push(`# ${line}`)
      const active = set[`${name}.${key}`]
      out.push(active !== undefined ? `${key} = ${active}` : `# ${key} = ${tomlDefault(field)}`)
    })
  }
  return out.join('\n') + '\n'
}

const cell = (text: string) => text.replaceAll('|', '\\|')

// The docs/configuration.md table: one row per key, in schema order.
export function referenceMarkdown(): string {
  const rows = ['| Key | Type | Default | Meaning |', '|---|---|---|---|']
  for (const [name, fields] of sections()) {
    for (const [key, field] of Object.entries(fields)) {
      rows.push(`| \`${name}.${key}\` | ${cell(field.type ?? typeof field.default)} | \`${cell(tomlDefault(field))}\` | ${cell(field.doc)} |`)
    }
  }
  return rows.join('\n')
}
