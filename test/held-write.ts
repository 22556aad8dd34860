import type { TxScript } from '../src/db/store.ts'
import type { Repositories } from '../src/store.ts'
import type { BackendRuntime } from './helpers.ts'

// The store of `rt` whose next write stays open once its script has run, until `release()`: a
// concurrent write then meets its changes uncommitted. PostgreSQL only (a SQLite script cannot
// wait inside its transaction). `written()`: the script has run.
export function holdNextWrite(rt: BackendRuntime) {
  let release!: () => void
  const held = new Promise<void>((resolve) => { release = resolve })
  let written = false
  const store = {
    ...rt.store,
    write: <T>(script: (tx: Repositories) => TxScript<T>) => rt.store.write(function* (tx) {
      const value = yield* script(tx)
      written = true
      yield held
      return value
    }),
  }
  return { store, release, written: () => written }
}

// How many statements of this test's database wait for a lock another transaction holds.
export async function lockWaits(rt: BackendRuntime): Promise<number> {
  const r = await rt.row<{ n: number }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)
  return r!.n
}
