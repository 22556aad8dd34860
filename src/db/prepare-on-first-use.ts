import { Statement, type Database } from 'bun:sqlite'

// What a statement is run with; each is a function of the statement itself (not of its class).
const RUNS = ['get', 'all', 'iterate', 'values', 'raw', 'run'] as const

// From now on `db.prepare` compiles each statement at its first use instead of at once. The
// repositories prepare every statement they have when the store is made, some 130 of them, and a
// site runs few of those in its first minutes: compiled at start they took about a tenth of the
// start-up and half a megabyte of memory for good. A statement that does not compile still fails
// at its first run, which every statement's tests make.
const deferred = new WeakSet<Database>()

export function prepareOnFirstUse(db: Database): void {
  if (deferred.has(db)) return
  deferred.add(db)
  const prepare = db.prepare.bind(db) as (...args: unknown[]) => Statement
  db.prepare = ((...args: unknown[]) => statementOnFirstUse(() => prepare(...args))) as Database['prepare']
}

// A stand-in for the statement `make` compiles, compiling it at the first call of anything. Its
// runs are then the statement's own, bound; everything else of the class reads the statement.
function statementOnFirstUse(make: () => Statement): Statement {
  const stand: Record<PropertyKey, unknown> = {}
  let made: Statement | null = null
  const statement = (): Statement => {
    if (!made) {
      made = make()
      for (const run of RUNS) stand[run] = (made[run] as (...args: unknown[]) => unknown).bind(made)
    }
    return made
  }
  for (const run of RUNS) stand[run] = (...args: unknown[]) => (statement()[run] as (...args: unknown[]) => unknown)(...args)
  for (const key of Reflect.ownKeys(Statement.prototype)) {
    if (key === 'constructor') continue
    const { get, value } = Object.getOwnPropertyDescriptor(Statement.prototype, key)!
    Object.defineProperty(stand, key, get
      ? { get: () => Reflect.get(statement(), key) }
      : { value: (...args: unknown[]) => Reflect.apply(value as (...args: unknown[]) => unknown, statement(), args) })
  }
  return stand as unknown as Statement
}
