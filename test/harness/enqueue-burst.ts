// Enqueues jobs as fast as it can until killed, `batch` jobs per transaction, and prints the id of
// every job once its transaction has committed (synchronous write: a printed id was committed
// before the line left the process). The crash test kills it with SIGKILL mid-burst; the backup
// test copies the database while it writes. Usage: enqueue-burst.ts CONFIG [BATCH]
import { writeSync } from 'node:fs'
import { loadConfig } from '../../src/config/load.ts'
import { use } from '../../src/db/store.ts'
import { createLogger } from '../../src/log.ts'
import { openStore } from '../../src/runtime.ts'

const rt = await openStore(loadConfig(process.argv[2]), { log: createLogger('error') })
const batch = Number(process.argv[3] ?? 1)
for (let b = 1; ; b++) {
  const ids = await rt.store.write(function* (tx) {
    const ids: number[] = []
    for (let i = 0; i < batch; i++) ids.push(yield* use(tx.jobs.enqueue({ kind: 'burst', payload: { batch: b, i } }, Date.now())))
    return ids
  })
  writeSync(1, ids.join('\n') + '\n')
  // Let the event loop breathe so the process behaves like the site (and can be signalled).
  if (b % 50 === 0) await Bun.sleep(0)
}
