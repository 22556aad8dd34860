import { afterAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/open.ts'
import { createSqliteStore } from '../../src/db/sqlite-store.ts'
import { runScriptAsync, ScriptError, use, type Awaitable, type TxScript } from '../../src/db/store.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'

afterAll(cleanupTemp)

// A repository of one table, as every SQLite repository is: plain values, no promise.
function counters(db: Database) {
  db.run('CREATE TABLE counter (name TEXT PRIMARY KEY, n INTEGER NOT NULL)')
  const get = db.prepare('SELECT n FROM counter WHERE name = ?')
  const put = db.prepare('INSERT INTO counter (name, n) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET n = ?2')
  return {
    get: (name: string) => (get.get(name) as { n: number } | null)?.n ?? 0,
    put: (name: string, n: number) => { put.run(name, n) },
  }
}

interface CounterRepo {
  get(name: string): Awaitable<number>
  put(name: string, n: number): Awaitable<void>
}

// Adds one to each counter, in one transaction; refuses (after writing the first) past `max`.
function* bump(tx: { counters: CounterRepo }, names: string[], max = Infinity): TxScript<number[]> {
  const out: number[] = []
  for (const name of names) {
    const n = (yield* use(tx.counters.get(name))) + 1
    if (n > max) throw new Error(`${name} would pass ${max}`)
    yield* use(tx.counters.put(name, n))
    out.push(n)
  }
  return out
}

// Scripts compose: one script's steps run inside another's transaction.
function* bumpTwice(tx: { counters: CounterRepo }, name: string): TxScript<number> {
  yield* bump(tx, [name])
  const [n] = yield* bump(tx, [name])
  return n
}

function sqlite() {
  const path = join(tempDir(), 's.db')
  const db = openDatabase(path)
  const store = createSqliteStore(db, { counters: counters(db) })
  return { path, db, store }
}

describe('transaction scripts on SQLite', () => {
  test('a script runs synchronously inside one committed transaction and resolves with its value', async () => {
    const { path, db, store } = sqlite()
    const written = store.write((tx) => bump(tx, ['a', 'b']))
    // Already committed: another connection sees it before the promise is even awaited.
    const reader = new Database(path, { readonly: true })
    expect(reader.query('SELECT name, n FROM counter ORDER BY name').all()).toEqual([{ name: 'a', n: 1 }, { name: 'b', n: 1 }])
    expect(await written).toEqual([1, 1])
    expect(await store.write((tx) => bumpTwice(tx, 'a'))).toBe(3)
    expect(db.inTransaction).toBe(false)
    reader.close()
    store.close()
  })

  test('a thrown error rolls the whole script back, and the promise rejects with it', async () => {
    const { db, store } = sqlite()
    await store.write((tx) => bump(tx, ['a']))
    await expect(store.write((tx) => bump(tx, ['b', 'a'], 1))).rejects.toThrow('a would pass 1')
    expect(store.counters.get('b')).toBe(0)
    expect(store.counters.get('a')).toBe(1)
    expect(db.inTransaction).toBe(false)
    store.close()
  })

  test('a script that yields a promise is refused and leaves nothing behind', async () => {
    const { db, store } = sqlite()
    const late: CounterRepo = { get: async () => 0, put: (name, n) => store.counters.put(name, n) }
    function* wrong(): TxScript<void> {
      yield* use(late.put('early', 1))
      yield* use(late.get('x'))
    }
    await expect(store.write(() => wrong())).rejects.toBeInstanceOf(ScriptError)
    expect(store.counters.get('early')).toBe(0)
    expect(db.inTransaction).toBe(false)
    store.close()
  })

  test('shared writes of one moment commit together; a refused one fails alone', async () => {
    const { store } = sqlite()
    const results = await Promise.allSettled([
      store.write((tx) => bump(tx, ['a']), { shared: true }),
      store.write((tx) => bump(tx, ['b'], 0), { shared: true }),
      store.write((tx) => bump(tx, ['a']), { shared: true }),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect([store.counters.get('a'), store.counters.get('b')]).toEqual([2, 0])
    store.close()
  })
})

describe('transaction scripts on an asynchronous backend', () => {
  // A repository whose every answer is a promise, over a map; a failed put rejects.
  function asyncCounters(data: Map<string, number>): CounterRepo {
    return {
      get: async (name) => data.get(name) ?? 0,
      put: async (name, n) => {
        if (name === 'broken') throw new Error('the connection dropped')
        data.set(name, n)
      },
    }
  }

  test('the same script runs with every step awaited', async () => {
    const data = new Map<string, number>()
    const tx = { counters: asyncCounters(data) }
    expect(await runScriptAsync(bump(tx, ['a', 'b']))).toEqual([1, 1])
    expect(await runScriptAsync(bumpTwice(tx, 'a'))).toBe(3)
    expect(Object.fromEntries(data)).toEqual({ a: 3, b: 1 })
  })

  test('a rejected step is thrown into the script at its yield, where it can be handled or passed on', async () => {
    const tx = { counters: asyncCounters(new Map()) }
    function* careful(): TxScript<string> {
      try {
        yield* use(tx.counters.put('broken', 1))
        return 'written'
      } catch (e) {
        return `kept going after: ${(e as Error).message}`
      }
    }
    expect(await runScriptAsync(careful())).toBe('kept going after: the connection dropped')
    await expect(runScriptAsync(bump(tx, ['broken']))).rejects.toThrow('the connection dropped')
  })
})
