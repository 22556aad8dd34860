import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { prepareOnFirstUse } from '../../src/db/prepare-on-first-use.ts'

// The repositories prepare every statement when the store is made; with prepareOnFirstUse each
// is compiled at its first use, and is from then on the statement itself to whoever holds it.
function deferredDb() {
  const db = new Database(':memory:')
  db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)')
  let compiled = 0
  const prepare = db.prepare.bind(db)
  db.prepare = ((...args: Parameters<typeof prepare>) => { compiled++; return prepare(...args) }) as typeof db.prepare
  prepareOnFirstUse(db)
  return { db, compiled: () => compiled }
}

test('a statement is compiled at its first use, once, and then runs as itself', () => {
  const { db, compiled } = deferredDb()
  const insert = db.prepare('INSERT INTO t (name) VALUES (?)')
  const byName = db.prepare('SELECT id, name FROM t WHERE name = ? ORDER BY id')
  expect(compiled()).toBe(0)
  expect(insert.run('a').lastInsertRowid).toBe(1)
  insert.run('b')
  insert.run('a')
  expect(compiled()).toBe(1)
  expect(byName.get('b')).toEqual({ id: 2, name: 'b' })
  expect(byName.all('a')).toEqual([{ id: 1, name: 'a' }, { id: 3, name: 'a' }])
  expect(byName.values('a')).toEqual([[1, 'a'], [3, 'a']])
  expect([...byName.iterate('b')]).toEqual([{ id: 2, name: 'b' }])
  expect(compiled()).toBe(2)
  // The members of the class other than the runs read the statement too.
  expect(byName.columnNames).toEqual(['id', 'name'])
  expect(byName.paramsCount).toBe(1)
  expect(byName.toString()).toContain('SELECT id, name FROM t')
  expect(compiled()).toBe(2)
})

test('each stand-in is its own statement, whatever the others did', () => {
  const { db } = deferredDb()
  const a = db.prepare('SELECT ? AS v')
  const b = db.prepare('SELECT ? * 2 AS v')
  expect(b.get(21)).toEqual({ v: 42 })
  expect(a.get('x')).toEqual({ v: 'x' })
  expect(b.columnNames).toEqual(['v'])
})

test('a statement that does not compile fails at its first use, not before', () => {
  const { db } = deferredDb()
  const broken = db.prepare('SELECT nope FROM nowhere')
  expect(() => broken.all()).toThrow(/no such table: nowhere/)
})
