import type { UsersRepo } from '../accounts/repo.ts'
import { use, type StoreWrites } from '../db/store.ts'
import type { Scheduler } from '../jobs/scheduler.ts'
import type { ServersRepo } from './repo.ts'

// The second part of deleting a server (the first: src/servers/purge-sql.ts): what hangs on the
// servers marked deleted is removed a few thousand rows per transaction, the server row last, and
// then the accounts deleted with their servers. After each step the purge waits as long as the
// step took (a step is a few to a few tens of milliseconds; on SQLite it holds the event loop as
// well as the write lock), so the site's requests and other writes (votes, plugin checks,
// deliveries) have at least half of the time: none waits for more than one step. Each step is a
// transaction of its own: a process stopped or killed in the middle leaves every row either there
// or gone, and the next run (at the next start, at the latest) goes on from where it stopped.

export const PURGE_TASK = 'servers.purge'

interface PurgeTx {
  servers: ServersRepo
  users: UsersRepo
}

export interface PurgeDeps {
  store: PurgeTx & StoreWrites<PurgeTx>
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

// Answers once every server marked deleted is removed, or when `signal` stops it between steps.
export async function purgeDeleted(deps: PurgeDeps, signal?: AbortSignal): Promise<void> {
  for (const server of await deps.store.servers.deleted()) {
    for (;;) {
      if (signal?.aborted) return
      const started = performance.now()
      const removed = await deps.store.write(function* (tx) { return yield* use(tx.servers.purgeStep(server.id, server.num)) })
      // Nothing removed: the server is gone, or another instance holds the rows left (it goes on).
      if (!removed) break
      await pause(performance.now() - started)
    }
  }
  await deps.store.write(function* (tx) { return yield* use(tx.users.removeDeleted()) })
}

// Every minute, and at once after a deletion (scheduler.wake(PURGE_TASK)). Every instance runs it:
// the steps of two instances at once take different rows (src/servers/purge-sql.ts).
export function registerPurgeWork(scheduler: Scheduler, deps: PurgeDeps): void {
  scheduler.every(PURGE_TASK, 60_000, (_now, signal) => purgeDeleted(deps, signal), { title: 'Deleted servers and accounts purge' })
}
