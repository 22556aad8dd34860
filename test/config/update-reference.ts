// `bun run docs:config`: rewrites the configuration table in docs/configuration.md from
// src/config/schema.ts. test/config/reference.test.ts fails while the page's table differs from
// the schema.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { referenceMarkdown } from '../../src/config/reference.ts'

export const REFERENCE_PAGE = join(import.meta.dir, '../../docs/configuration.md')
export const START = '<!-- config-reference:start -->'
export const END = '<!-- config-reference:end -->'

export function referenceTable(text: string): string | null {
  const a = text.indexOf(START)
  const b = text.indexOf(END)
  return a < 0 || b < a ? null : text.slice(a + START.length, b).trim()
}

if (import.meta.main) {
  const text = readFileSync(REFERENCE_PAGE, 'utf8')
  if (referenceTable(text) === null) throw new Error(`docs/configuration.md has no ${START} … ${END} block`)
  const a = text.indexOf(START) + START.length
  writeFileSync(REFERENCE_PAGE, `${text.slice(0, a)}\n${referenceMarkdown()}\n${text.slice(text.indexOf(END))}`)
  console.log('docs/configuration.md: configuration reference updated')
}
