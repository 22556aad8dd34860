import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { referenceMarkdown } from '../../src/config/reference.ts'
import { configSchema } from '../../src/config/schema.ts'
import { REFERENCE_PAGE, referenceTable } from './update-reference.ts'

describe('the configuration reference (docs/configuration.md)', () => {
  const page = readFileSync(REFERENCE_PAGE, 'utf8')

  test('documents every key of the schema', () => {
    const keys = Object.entries(configSchema).flatMap(([section, fields]) => Object.keys(fields).map((k) => `${section}.${k}`))
    expect(keys.length).toBeGreaterThan(15)
    const missing = keys.filter((k) => !page.includes(`| \`${k}\` |`))
    expect(missing).toEqual([])
  })

  test('is exactly the table generated from the schema (run `bun run docs:config` after changing it)', () => {
    const table = referenceTable(page)
    expect(table).not.toBeNull()
    if (table !== referenceMarkdown()) {
      throw new Error('docs/configuration.md\'s configuration table differs from src/config/schema.ts: run `bun run docs:config` and commit docs/configuration.md')
    }
  })
})
