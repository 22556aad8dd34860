// `bun run docs:config`: rewrites the configuration table in README.md from src/config/schema.ts.
// test/config/reference.test.ts fails while the README's table differs from the schema.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { referenceMarkdown } from '../../src/config/reference.ts'

export const README = join(import.meta.dir, '../../README.md')
export const START = '<!-- config-reference:start -->'
export const END = '<!-- config-reference:end -->'

export function readmeTable(text: string): string | null {
  const a = text.indexOf(START)
  const b = text.indexOf(END)
  return a < 0 || b < a ? null : text.slice(a + START.length, b).trim()
}

if (import.meta.main) {
  const text = readFileSync(README, 'utf8')
  if (readmeTable(text) === null) throw new Error(`README.md has no ${START} … ${END} block`)
  const a = text.indexOf(START) + START.length
  writeFileSync(README, `${text.slice(0, a)}\n${referenceMarkdown()}\n${text.slice(text.indexOf(END))}`)
  console.log('README.md: configuration reference updated')
}
