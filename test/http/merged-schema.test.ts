import { describe, expect, test } from 'bun:test'
import { t } from 'elysia'
import { merged } from '../../src/http/schema.ts'

// merged() stands in for t.Composite in the answers' schemas (a cheaper start): for objects that
// share no property it must give the very schema Composite gives, and refuse objects that do.
describe('merged object schemas', () => {
  const a = t.Object({ id: t.String(), name: t.String({ description: 'shown' }), note: t.Optional(t.String()) })
  const b = t.Object({ online: t.Union([t.Boolean(), t.Null()]), players: t.Array(t.Integer()) })

  test('give the schema t.Composite gives for objects that share no property', () => {
    expect(JSON.stringify(merged(a, b))).toBe(JSON.stringify(t.Composite([a, b])))
    expect(JSON.stringify(merged(merged(a, b), t.Object({ extra: t.Number() })))).toBe(JSON.stringify(t.Composite([a, b, t.Object({ extra: t.Number() })])))
  })

  test('refuse objects that share a property', () => {
    expect(() => merged(a, t.Object({ name: t.Number() }))).toThrow('merged objects share name')
  })
})
