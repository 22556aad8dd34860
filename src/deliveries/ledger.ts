import { use, type StoreWrites } from '../db/store.ts'
import type { JobSettlement } from '../jobs/repo.ts'
import type { DeliveriesTx } from './attempt.ts'
import type { AttemptEnd, AttemptStart, StartedAttempt } from './repo.ts'

// Group commit for delivery state. Each attempt writes twice: its row 'pending' before anything is
// sent, and its outcome after. One transaction per write made the durable bookkeeping cost more
// than the sending; so the starts and ends handed in during one turn of the event loop are
// written together, in ONE transaction (with the jobs the ends settle), and nobody goes on before
// that transaction has committed:
// - a begun attempt sends nothing until its 'pending' row is durable, so a process killed at any
//   moment after leaves a trace, closed as interrupted at the next start (and its job, still
//   leased, runs again);
// - an attempt's outcome, its delivery's new status and its job's removal (or its next run time)
//   commit together, so a kill leaves the delivery either done with its attempt recorded, or
//   due again with its job;
// - if the transaction fails, no write of the group took effect: each is then tried alone, so
//   that a write that cannot succeed fails by itself and the others go on.
// While one group is being written (PostgreSQL answers asynchronously), the next one gathers.

export interface AttemptLedger {
  // The attempt's row, written 'pending'; null when no attempt is due from its series any more.
  begin(start: AttemptStart): Promise<StartedAttempt | null>
  // The attempt's outcome, with the job that ran it settled in the same transaction.
  finish(end: AttemptEnd, job?: JobSettlement): Promise<void>
}

interface Waiting<I, V> {
  item: I
  resolve: (value: V) => void
  reject: (error: unknown) => void
}

type Start = Waiting<AttemptStart, StartedAttempt | null>
type End = Waiting<{ end: AttemptEnd; job?: JobSettlement }, void>

export function createAttemptLedger(store: StoreWrites<DeliveriesTx>): AttemptLedger {
  let starts: Start[] = []
  let ends: End[] = []
  let scheduled = false
  let writing = false

  // One transaction: the ends first (a delivery whose attempt ends here is not begun again before
  // its job, settled here, is claimed again).
  const write = (s: Start[], e: End[]) => store.write(function* (tx) {
    if (e.length) {
      yield* use(tx.deliveries.endAttempts(e.map((w) => w.item.end)))
      const settled = e.flatMap((w) => (w.item.job ? [w.item.job] : []))
      if (settled.length) yield* use(tx.jobs.settle(settled))
    }
    return s.length ? yield* use(tx.deliveries.startAttempts(s.map((w) => w.item))) : []
  })

  async function flush() {
    scheduled = false
    // A delivery appears once in a group: a second start of it waits for the next one.
    const seen = new Set<string>()
    const group: Start[] = []
    const later: Start[] = []
    for (const w of starts) {
      if (seen.has(w.item.deliveryId)) later.push(w)
      else {
        seen.add(w.item.deliveryId)
        group.push(w)
      }
    }
    const finished = ends
    starts = later
    ends = []
    writing = true
    try {
      const started = await write(group, finished)
      group.forEach((w, i) => w.resolve(started[i]))
      for (const w of finished) w.resolve()
    } catch (error) {
      if (group.length + finished.length === 1) {
        for (const w of [...group, ...finished]) w.reject(error)
      } else {
        for (const w of finished) await write([], [w]).then(() => w.resolve(), w.reject)
        for (const w of group) await write([w], []).then((s) => w.resolve(s[0]), w.reject)
      }
    } finally {
      writing = false
      if (starts.length || ends.length) schedule()
    }
  }

  // After the current turn: the attempts that begin or end in the same poll of the event loop
  // join the group.
  function schedule() {
    if (scheduled || writing) return
    scheduled = true
    setImmediate(flush)
  }

  return {
    begin: (item) => new Promise((resolve, reject) => {
      starts.push({ item, resolve, reject })
      schedule()
    }),
    finish: (end, job) => new Promise((resolve, reject) => {
      ends.push({ item: { end, job }, resolve, reject })
      schedule()
    }),
  }
}
