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
// The stand-ins share one prototype, made once, that forwards to the statement: a stand-in of its
// own per statement (a closure per method and a property per member of the class) took 7 ms of
// every start for the 130 of them.
const MAKE = Symbol('make')
const MADE = Symbol('made')
interface StandIn {
  [MAKE]: () => Statement
  [MADE]: Statement | null
}

function statementOf(stand: StandIn): Statement {
  let made = stand[MADE]
  if (!made) {
    made = stand[MADE] = stand[MAKE]()
    for (const run of RUNS) (stand as unknown as Record<string, unknown>)[run] = (made[run] as (...args: unknown[]) => unknown).bind(made)
  }
  return made
}

const forward: object = {}
for (const run of RUNS) {
  Object.defineProperty(forward, run, { value(this: StandIn, ...args: unknown[]) { return (statementOf(this)[run] as (...args: unknown[]) => unknown)(...args) }, writable: true })
}
for (const key of Reflect.ownKeys(Statement.prototype)) {
  if (key === 'constructor' || Object.hasOwn(forward, key)) continue
  const { get, value } = Object.getOwnPropertyDescriptor(Statement.prototype, key)!
  Object.defineProperty(forward, key, get
    ? { get(this: StandIn) { return Reflect.get(statementOf(this), key) } }
    : { value(this: StandIn, ...args: unknown[]) { return Reflect.apply(value as (...args: unknown[]) => unknown, statementOf(this), args) }, writable: true })
}

function statementOnFirstUse(make: () => Statement): Statement {
  const stand = Object.create(forward) as StandIn
  stand[MAKE] = make
  stand[MADE] = null
  return stand as unknown as Statement
}
