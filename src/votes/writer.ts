import type { MessagePort } from 'node:worker_threads'
import { DEFAULT_AUTOCHECKPOINT } from '../db/checkpointer.ts'
import { writeGate, type WriteGate } from '../db/write-gate.ts'
import { nodeWorkerThreads } from '../lazy-modules.ts'
import type { Logger } from '../log.ts'
import { compiled } from '../paths.ts'
import type { ListingPolicy } from '../servers/repo.ts'
import type { CastVote, VoteJob } from './service.ts'
import { ANSWERED, GATE, SENT, SLOTS, WAITING, fromWire, type Answer, type Batch, type Open, type Started } from './writer-wire.ts'

// Votes written on a thread of their own. Under a burst, a vote's transaction (the interval
// checks, the vote and its addresses, the month counters, the deliveries and their jobs, its share
// of the commit) took half of the site's thread while the machine's second core mostly waited.
// While the site serves on SQLite, the vote writer's thread (src/votes/writer-thread.ts), with its
// own connection to the same file, writes them instead: at the end of each turn the site's thread
// sends it the votes of that turn as one batch of plain data (VoteJob), the thread writes every
// batch it has been sent in one commit, each vote atomic and a refused vote refused alone, and
// answers each vote's outcome once that commit returned. Durability is unchanged: nobody is
// answered before the commit of their vote returned, on either thread.
//
// Batches and answers do not go through the workers' message events: delivered through the event
// loops, each took from 40 µs (idle) to a millisecond (under load) to arrive, and a burst's votes
// waited on that rather than on the machine. Both go, as JSON text (a string is copied across at
// once; an object graph is cloned piece by piece), through channels their reader empties
// synchronously (receiveMessageOnPort) when a shared counter says there is something: the thread
// sleeps on the count of batches sent (a futex, woken in microseconds, and only when it sleeps),
// the site's thread waits on the count of answers (Atomics.waitAsync) while any batch is out.
//
// The thread (about 5 MB) starts at the first vote; until it is ready, and for good if it cannot
// start or fails, votes are written on the site's thread as before (write() answers null). Every
// other write stays on the site's thread; the two connections take a lock they share around their
// write transactions (src/db/write-gate.ts), so that the site's thread waits for the thread's
// commit as long as it lasts instead of sleeping in SQLite's busy handler.
// A batch the thread had when it failed is answered with the failure: those votes may or may not
// be written, and none of them was acknowledged.

export interface VoteWriter {
  // Resolves once the vote is durable, as the site's own write would; null: write it on the
  // site's thread (the writer is starting, failed or stopped).
  write(job: VoteJob): Promise<CastVote> | null
  // Holds the batches back until `until` settles (the WAL checkpointer catching up:
  // src/db/checkpointer.ts), as the site's grouped writes are.
  hold(until: Promise<unknown>): void
  // Lets the batches handed in finish, then closes the thread's connection and ends it.
  stop(): Promise<void>
}

interface Pending {
  job: VoteJob
  resolve: (value: CastVote) => void
  reject: (error: unknown) => void
}

export interface VoteWriterOptions {
  path: string
  policy: ListingPolicy
  log: Logger
  // A delivery job was queued for now: the site's queue runs it.
  onDue: () => void
  // Whether the checkpoint thread runs (the site's connection then no longer checkpoints by itself).
  checkpointing: () => boolean
  // Hands the site's connection the write lock it shares with the thread's (null: none).
  shareGate: (gate: WriteGate | null) => void
}

// How long the site's thread waits for the write lock before going on without it (a commit of the
// thread takes a millisecond or less).
const SITE_PATIENCE_MS = 100

// The thread's entry point: in the compiled binary, a second entry point of the build (package.json),
// named from the sources' root; in development, the file beside this one.
const THREAD = compiled ? './votes/writer-thread.ts' : new URL('./writer-thread.ts', import.meta.url)

// Atomics.waitAsync (ES2024), which Bun has and the project's TypeScript library does not name.
type WithWaitAsync = typeof Atomics & {
  waitAsync(a: Int32Array, index: number, value: number): { async: true; value: Promise<string> } | { async: false; value: string }
}

export function createVoteWriter(opts: VoteWriterOptions): VoteWriter {
  let state: 'idle' | 'starting' | 'ready' | 'failed' | 'stopped' = 'idle'
  let worker: Worker | null = null
  // Shared with the thread (writer-wire.ts): it starts once, at most.
  const counters = new Int32Array(new SharedArrayBuffer(SLOTS * 4))
  let batches: MessagePort | null = null
  let outcomes: MessagePort | null = null
  let pending: Pending[] = []
  // The batches sent and not yet answered, oldest first: the thread answers them in order.
  const inFlight: Pending[][] = []
  let scheduled = false
  let polling = false
  let held: Promise<unknown> | null = null
  // stop() waiting: for the last batches' outcomes, then for the thread's connection to close.
  let drained: (() => void) | null = null
  let stopped: (() => void) | null = null
  // A stop was sent to the thread and not answered yet.
  let stopping = false

  const closePorts = () => {
    batches?.close()
    outcomes?.close()
    batches = outcomes = null
  }

  // The thread is gone or unusable: what it was writing fails, later votes go to the site's thread.
  function fail(why: string) {
    if (state === 'failed' || state === 'stopped') {
      stopped?.()
      return
    }
    const wasReady = state === 'ready'
    state = 'failed'
    opts.shareGate(null)
    worker?.terminate()
    worker = null
    closePorts()
    const lost = [...inFlight.flat(), ...pending]
    inFlight.length = 0
    pending = []
    const error = new Error(`the vote writer's thread failed: ${why}`)
    for (const p of lost) p.reject(error)
    drained?.()
    if (wasReady) opts.log.error('votes are written on the site\'s own thread again', { reason: why })
    else opts.log.warn('votes are written on the site\'s own thread: their writer\'s thread could not start', { reason: why })
  }

  function answered(a: Answer) {
    if (a.stopped) {
      stopping = false
      return stopped?.()
    }
    const batch = inFlight.shift()!
    a.outcomes.forEach((o, i) => {
      if (o.ok) batch[i].resolve(o.value)
      else batch[i].reject(fromWire(o.error))
    })
    if (a.due) opts.onDue()
    if (!inFlight.length && !pending.length) drained?.()
  }

  // Reads the answers that came; while any is still due, waits for the next one.
  function poll() {
    polling = false
    if (!outcomes) return
    if (Atomics.load(counters, ANSWERED) > 0) {
      const receive = nodeWorkerThreads().receiveMessageOnPort
      for (let m = receive(outcomes); m; m = outcomes && receive(outcomes)) {
        Atomics.sub(counters, ANSWERED, 1)
        answered(JSON.parse(m.message as string) as Answer)
      }
    }
    if (inFlight.length || stopping) awaitAnswers()
  }

  // The thread wakes the count of answers not read yet; an answer already there is read at the
  // next turn.
  function awaitAnswers() {
    if (polling) return
    polling = true
    const w = (Atomics as WithWaitAsync).waitAsync(counters, ANSWERED, 0)
    if (w.async) void w.value.then(poll)
    else setImmediate(poll)
  }

  function send(batch: Batch) {
    batches!.postMessage(JSON.stringify(batch))
    Atomics.add(counters, SENT, 1)
    // A system call: only when the thread sleeps.
    if (Atomics.load(counters, WAITING)) Atomics.notify(counters, SENT)
    awaitAnswers()
  }

  function start() {
    state = 'starting'
    try {
      worker = new Worker(THREAD)
    } catch (e) {
      return fail(String((e as Error).message))
    }
    const { MessageChannel } = nodeWorkerThreads()
    const toThread = new MessageChannel()
    const fromThread = new MessageChannel()
    batches = toThread.port1
    outcomes = fromThread.port1
    opts.shareGate(writeGate(counters, GATE, 'site', SITE_PATIENCE_MS))
    worker.onmessage = ({ data }: MessageEvent<Started>) => {
      if ('failed' in data) return fail(data.failed)
      if (state !== 'starting') return
      state = 'ready'
      opts.log.debug('votes are written on a thread of their own from now on')
    }
    worker.onerror = (e) => fail(e.message)
    worker.addEventListener('close', () => fail('the thread ended'))
    const open: Open = { path: opts.path, policy: opts.policy, counters: counters.buffer as SharedArrayBuffer, batches: toThread.port2, outcomes: fromThread.port2 }
    worker.postMessage(open, [toThread.port2, fromThread.port2])
  }

  function dispatch() {
    scheduled = false
    if (held || !pending.length || state !== 'ready') return
    const batch = pending
    pending = []
    inFlight.push(batch)
    send({ votes: batch.map((p) => p.job), autocheckpoint: opts.checkpointing() ? 0 : DEFAULT_AUTOCHECKPOINT })
  }

  return {
    write(job) {
      if (state === 'idle') start()
      if (state !== 'ready') return null
      return new Promise<CastVote>((resolve, reject) => {
        pending.push({ job, resolve, reject })
        // setImmediate: the votes read in the same poll of the event loop make one batch.
        if (!scheduled) {
          scheduled = true
          setImmediate(dispatch)
        }
      })
    },
    hold(until) {
      const settled: Promise<unknown> = until.then(() => {}, () => {})
      held = settled
      void settled.then(() => {
        if (held === settled) held = null
        dispatch()
      })
    },
    async stop() {
      if (state === 'ready' && (inFlight.length || pending.length)) await new Promise<void>((resolve) => { drained = resolve })
      if (state !== 'ready' && state !== 'starting') {
        state = 'stopped'
        return
      }
      const w = worker!
      if (state === 'starting') await new Promise<void>((resolve) => w.addEventListener('message', () => resolve(), { once: true }))
      // From here write() answers null; the site's requests have all been answered by now.
      const wasReady = state === 'ready'
      state = 'stopped'
      if (wasReady) await new Promise<void>((resolve) => {
        stopped = resolve
        stopping = true
        send({ votes: [], autocheckpoint: DEFAULT_AUTOCHECKPOINT, stop: true })
      })
      worker = null
      closePorts()
      opts.shareGate(null)
      w.terminate()
    },
  }
}
