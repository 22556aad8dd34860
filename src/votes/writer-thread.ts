// The vote writer's thread (src/votes/writer.ts): a connection of its own to the site's SQLite
// file, with the same pragmas (openDatabase), on which it writes the votes it is sent. It waits
// for batches on the shared counter, takes every batch sent so far, writes them in one commit
// (writeGroup: each vote atomic, a refused vote refused alone), and answers each batch once that
// commit has returned. It reads and writes only through the repositories, as the site does.
// Everything here is synchronous: the thread never goes back to its event loop until it stops.
import { receiveMessageOnPort } from 'node:worker_threads'
import { sqliteChannelsRepo } from '../channels/sqlite-repo.ts'
import { writeGroup, type GroupWrite } from '../db/group-commit.ts'
import { writeGate } from '../db/write-gate.ts'
import { BUSY_TIMEOUT_MS, openDatabase } from '../db/open.ts'
import { prepareOnFirstUse } from '../db/prepare-on-first-use.ts'
import { runScript } from '../db/store.ts'
import { sqliteDeliveriesRepo } from '../deliveries/sqlite-repo.ts'
import { sqliteJobsRepo } from '../jobs/sqlite-repo.ts'
import { sqliteServersRepo } from '../servers/sqlite-repo.ts'
import { castScript, type VoteTx } from './service.ts'
import { sqliteVotesRepo } from './sqlite-repo.ts'
import { ANSWERED, GATE, SENT, WAITING, toWire, type Answer, type Batch, type Open, type VoteOutcome, type Started } from './writer-wire.ts'

declare const self: Worker

self.onmessage = ({ data }: MessageEvent<Open>) => {
  let db: ReturnType<typeof openDatabase> | null = null
  try {
    db = openDatabase(data.path)
    prepareOnFirstUse(db)
  } catch (e) {
    db?.close()
    self.postMessage({ failed: String((e as Error)?.message ?? e) } satisfies Started)
    return
  }
  self.postMessage({ ready: true } satisfies Started)
  serve(db, data)
}

function serve(db: ReturnType<typeof openDatabase>, open: Open) {
  const counters = new Int32Array(open.counters)
  // Whether the batches being written queued a job due now; the repository's own signal
  // (onDue) comes in a microtask, which this thread does not run.
  let due = false
  const jobs = sqliteJobsRepo(db)
  const tx: VoteTx = {
    votes: sqliteVotesRepo(db), servers: sqliteServersRepo(db, open.policy), channels: sqliteChannelsRepo(db), deliveries: sqliteDeliveriesRepo(db),
    jobs: { ...jobs, enqueue: (job, at) => { due = true; return jobs.enqueue(job, at) } },
  }
  // The write lock shared with the site's connection; past SQLite's busy timeout, go on without it.
  const gate = writeGate(counters, GATE, 'other', BUSY_TIMEOUT_MS)
  let autocheckpoint = -1
  // Batches taken from the channel so far (the site's SENT count once the thread has caught up).
  let taken = 0
  const answer = (a: Answer) => {
    open.outcomes.postMessage(JSON.stringify(a))
    Atomics.add(counters, ANSWERED, 1)
    Atomics.notify(counters, ANSWERED)
  }
  for (;;) {
    if (Atomics.load(counters, SENT) === taken) {
      Atomics.store(counters, WAITING, 1)
      Atomics.wait(counters, SENT, taken)
      Atomics.store(counters, WAITING, 0)
    }
    const batches: Batch[] = []
    for (let m = receiveMessageOnPort(open.batches); m; m = receiveMessageOnPort(open.batches)) batches.push(JSON.parse(m.message as string) as Batch)
    taken += batches.length
    const stop = batches.findIndex((b) => b.stop)
    const writing = stop < 0 ? batches : batches.slice(0, stop)
    if (writing.length) {
      // The site's connection checkpoints by itself until the checkpoint thread runs; this one
      // follows the same rule, so that the WAL is always checkpointed by someone.
      const wanted = writing[writing.length - 1].autocheckpoint
      if (wanted !== autocheckpoint) {
        db.run(`PRAGMA wal_autocheckpoint = ${wanted}`)
        autocheckpoint = wanted
      }
      due = false
      const writes: GroupWrite[] = writing.flatMap((b) => b.votes.map((job) => ({ write: () => runScript(castScript(tx, job)), atomicity: 'bare' as const })))
      let outcomes: VoteOutcome[]
      const locked = gate.enter()
      try {
        outcomes = writeGroup(db, writes).map((o): VoteOutcome => (o.ok ? (o as VoteOutcome) : { ok: false, error: toWire(o.error) }))
      } catch (e) {
        const error = toWire(e)
        outcomes = writes.map((): VoteOutcome => ({ ok: false, error }))
      } finally {
        gate.leave(locked)
      }
      let at = 0
      for (const b of writing) answer({ outcomes: outcomes.slice(at, (at += b.votes.length)), due })
    }
    if (stop >= 0) {
      db.close()
      answer({ outcomes: [], due: false, stopped: true })
      return
    }
  }
}
