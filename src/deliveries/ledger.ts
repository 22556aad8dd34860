import { throughOutage } from '../db/outage.ts'
import { use, type StoreWrites, type TxScript } from '../db/store.ts'
import type { Job, JobClaim, JobSettlement } from '../jobs/repo.ts'
import type { DeliveriesTx, DeliveryJob } from './attempt.ts'
import { channelSettings, type ChannelSettings } from './channel.ts'
import { DELIVERY_JOB, type AttemptEnd, type AttemptStart, type Delivery, type StartedAttempt } from './repo.ts'

// Group commit for the delivery work. Each attempt costs the job queue's claim, its row written
// 'pending' before anything is sent, and its outcome after, with its job settled. One transaction
// for each made the durable bookkeeping cost more than the sending; so the claims, starts and
// ends handed in within a few turns of the event loop are written together, in ONE transaction,
// and nobody goes on before that transaction has committed:
// - a claimed job runs only once its lease is durable;
// - a begun attempt sends nothing until its 'pending' row is durable, so a process killed at any
//   moment after leaves a trace, closed as interrupted at the next start (and its job, still
//   leased, runs again);
// - an attempt's outcome, its delivery's new status and its job's removal (or its next run time)
//   commit together, so a kill leaves the delivery either done with its attempt recorded, or
//   due again with its job;
// - if the transaction fails, no write of the group took effect: each is then tried alone, so
//   that a write that cannot succeed fails by itself and the others go on.
// On PostgreSQL a group may be written while the previous one still waits for its commit (the
// server flushes commits that arrive together at once): the groups of one moment touch different
// deliveries and jobs. They are answered in the order they were made, so that attempts begin, and
// go out, in the order of their jobs.
//
// The deliveries about to be attempted are read in that transaction too, those of the delivery
// jobs it claims at once: an attempt reads its delivery and its channel's settings, and on SQLite
// a statement outside a transaction takes and drops the database's read lock on its own (two
// fcntl() and an fstat(), more than the read itself costs).

// A delivery as it is now, with its channel's settings (null once the channel was removed).
export interface LoadedDelivery {
  delivery: Delivery
  settings: ChannelSettings | null
}

export interface AttemptLedger {
  // The job queue's claims (QueueOptions.claim).
  claim(c: JobClaim): Promise<Job[]>
  // The delivery as it is now; null once it is gone.
  load(deliveryId: string): Promise<LoadedDelivery | null>
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

interface Group {
  ends: Waiting<{ end: AttemptEnd; job?: JobSettlement }, void>[]
  claims: Waiting<JobClaim, Job[]>[]
  loads: Waiting<string, LoadedDelivery | null>[]
  starts: Waiting<AttemptStart, StartedAttempt | null>[]
}

interface Written {
  claimed: Job[][]
  // The deliveries of the delivery jobs claimed, by delivery id.
  preloaded: Map<string, LoadedDelivery | null>
  loaded: (LoadedDelivery | null)[]
  started: (StartedAttempt | null)[]
}

const emptyGroup = (): Group => ({ ends: [], claims: [], loads: [], starts: [] })

// Turns of the event loop a group waits for more work before it is written (see schedule()).
const GATHER_TURNS = 3

function* loadDelivery(tx: DeliveriesTx, id: string): TxScript<LoadedDelivery | null> {
  const delivery = yield* use(tx.deliveries.get(id))
  return delivery && { delivery, settings: yield* use(channelSettings(tx.channels, delivery)) }
}

export function createAttemptLedger(store: DeliveriesTx & StoreWrites<DeliveriesTx>): AttemptLedger {
  let next = emptyGroup()
  let scheduled = false
  let answered = Promise.resolve()
  // The deliveries read with the claim of their jobs, until their attempts ask for them (at once:
  // a claimed job starts as soon as its claim is answered, and the next group's answer replaces
  // what is left).
  let preloaded = new Map<string, LoadedDelivery | null>()

  // One transaction, in this order: the ends (a job settled here may be claimed again below), the
  // claims with their deliveries, the reads, the starts.
  const write = (g: Group) => store.write(function* (tx): TxScript<Written> {
    if (g.ends.length) {
      yield* use(tx.deliveries.endAttempts(g.ends.map((w) => w.item.end)))
      const settled = g.ends.flatMap((w) => (w.item.job ? [w.item.job] : []))
      if (settled.length) yield* use(tx.jobs.settle(settled))
    }
    const written: Written = { claimed: [], preloaded: new Map(), loaded: [], started: [] }
    for (const w of g.claims) written.claimed.push(yield* use(tx.jobs.claim(w.item)))
    for (const job of written.claimed.flat()) {
      if (job.kind !== DELIVERY_JOB) continue
      const id = (job.payload as DeliveryJob).deliveryId
      if (!written.preloaded.has(id)) written.preloaded.set(id, yield* loadDelivery(tx, id))
    }
    for (const w of g.loads) written.loaded.push(yield* loadDelivery(tx, w.item))
    if (g.starts.length) written.started = yield* use(tx.deliveries.startAttempts(g.starts.map((w) => w.item)))
    return written
  })

  const settle = (g: Group, r: Written) => {
    preloaded = r.preloaded
    g.ends.forEach((w) => w.resolve())
    g.claims.forEach((w, i) => w.resolve(r.claimed[i]))
    g.loads.forEach((w, i) => w.resolve(r.loaded[i]))
    g.starts.forEach((w, i) => w.resolve(r.started[i]))
  }

  function flush() {
    scheduled = false
    // A delivery begins once in a group: a second start of it waits for the next one.
    const group: Group = { ...next, starts: [] }
    const later: Group['starts'] = []
    const seen = new Set<string>()
    for (const w of next.starts) {
      if (seen.has(w.item.deliveryId)) later.push(w)
      else {
        seen.add(w.item.deliveryId)
        group.starts.push(w)
      }
    }
    next = { ...emptyGroup(), starts: later }
    if (later.length) schedule()
    // Its outcome is taken at once: on PostgreSQL, where writes are round trips, a group can fail
    // while an earlier one is still being answered (retried write by write), and a rejection
    // left without a handler until then ends a Bun process.
    // While the database cannot be reached (a restart, a failover) the group is written again: an
    // attempt's outcome that failed to be written leaves its job leased by this live instance until
    // jobs.lease ends, and sent again then. Each of its writes can be made again (an outcome holds
    // only while its attempt is the delivery's latest, a settlement only while the job holds this
    // claim's lease; a start written twice closes the first as interrupted, before anything is
    // sent).
    const written = throughOutage(() => write(group)).then((r): { r: Written } => ({ r }), (error: unknown) => ({ error }))
    // Answered in the order the groups were made, whichever commits first: attempts begin (and
    // so go out) in the order they were asked for.
    answered = answered.then(() => written.then((w) => ('r' in w ? settle(group, w.r) : retryAlone(group, w.error))))
  }

  async function retryAlone(group: Group, error: unknown) {
    const alone = (Object.keys(group) as (keyof Group)[]).flatMap((k) => group[k].map((w) => ({ ...emptyGroup(), [k]: [w] }) as Group))
    if (alone.length === 1) return rejectAll(group, error)
    for (const g of alone) await write(g).then((r) => settle(g, r), (e) => rejectAll(g, e))
  }

  // A few turns of the event loop after the first write handed in: what the sockets answer
  // meanwhile (attempts ending, their jobs' next claims, attempts beginning) joins the group.
  // Written at the end of the turn it came in, a group held 6.8 deliveries' work on average in
  // the drain benchmark, and the commit (about 180 µs) cost a third of the ledger's time; after
  // three more turns, 10.3, and the drain is 10-15 % faster. At idle a turn takes microseconds.
  function schedule() {
    if (scheduled) return
    scheduled = true
    let turns = GATHER_TURNS
    const gather = () => (turns-- > 0 ? setImmediate(gather) : flush())
    setImmediate(gather)
  }

  const enqueue = <I, V>(list: (g: Group) => Waiting<I, V>[], item: I) => new Promise<V>((resolve, reject) => {
    list(next).push({ item, resolve, reject })
    schedule()
  })

  function load(id: string) {
    if (preloaded.has(id)) {
      const loaded = preloaded.get(id) ?? null
      preloaded.delete(id)
      return Promise.resolve(loaded)
    }
    return enqueue((g) => g.loads, id)
  }

  return {
    claim: (c) => enqueue((g) => g.claims, c),
    load,
    begin: (start) => enqueue((g) => g.starts, start),
    finish: (end, job) => enqueue((g) => g.ends, { end, job }),
  }
}

function rejectAll(g: Group, error: unknown) {
  for (const w of [...g.ends, ...g.claims, ...g.loads, ...g.starts]) w.reject(error)
}
