import type { Pg } from './postgres-client.ts'
import { runScriptAsync, type StoreControl, type StoreWrites, type TxScript } from './store.ts'

export type PostgresStore<R> = R & StoreWrites<R> & StoreControl

// Builds the repositories over one handle (the pool, or a transaction). `afterCommit` runs a
// function once what the handle wrote is committed.
export type RepositoriesOn<R> = (pg: Pg, afterCommit: (fn: () => void) => void) => R

// The store over a PostgreSQL pool: its repositories run each statement on a connection of the
// pool, and write() runs a script in a transaction of its own (READ COMMITTED, the server's
// default) with repositories bound to the transaction's connection, awaiting each step. Scripts
// that must not interleave on some rows say so through their repositories (the votes of one
// server take its advisory lock, claims and jobs lock the rows they take). A shared write is a
// write like any other here: each transaction commits on its own connection.
export function createPostgresStore<R extends object>(pg: Pg, repositories: RepositoriesOn<R>): PostgresStore<R> {
  return {
    ...repositories(pg, (fn) => fn()),
    kind: 'postgres',
    async write<T>(script: (tx: R) => TxScript<T>): Promise<T> {
      const committed: (() => void)[] = []
      const value = (await pg.begin((tx) => runScriptAsync(script(repositories(tx, (fn) => committed.push(fn)))))) as T
      for (const fn of committed) fn()
      return value
    },
    // The server's own tools back a PostgreSQL database up (pg_dump, continuous archiving).
    checkpointInBackground: () => null,
    backup: () => Promise.reject(new Error('votelist backs up SQLite files only: back a PostgreSQL database up with pg_dump or the server\'s continuous archiving')),
    close: () => pg.close(),
  }
}
