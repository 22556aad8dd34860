import type { Clock } from '../clock.ts'
import type { Awaitable } from '../db/store.ts'
import { errorText, type Logger } from '../log.ts'

// The one owner of every timer in votelist. Tasks are periodic and never overlap with
// themselves; a task due while it still runs waits for the run to end. Tests do not start the
// timer: they move an injected clock and call tick().

export interface TaskInfo {
  id: string
  // What the task does, in a few words, for the administrator's view of the scheduled work.
  title: string
  everyMs: number
  aligned: boolean
  running: boolean
  runs: number
  lastRunAt: number | null
  lastDurationMs: number | null
  lastError: string | null
  nextRunAt: number
  // Runs left to another instance, which had claimed their period (`once` tasks).
  leftToOthers: number
}

// `signal` is aborted when the scheduler stops, so a long task (a ping round) can end early.
type Run = (now: number, signal: AbortSignal) => unknown

interface Task extends TaskInfo {
  run: Run
  once: boolean
  again: boolean
  current: Promise<void> | null
}

export interface TaskOptions {
  title?: string
  // Run at multiples of everyMs since the epoch (UTC-aligned rounds) instead of everyMs after
  // the previous run. An aligned task first runs at the next boundary; others run at once.
  align?: boolean
  // Once per period (the multiple of everyMs that the run starts in) across the instances sharing
  // the database, where there are several: only the instance that claims the period runs it.
  once?: boolean
}

// Claims of periods by the instances of a site (src/cluster/): `claim` answers true for the one
// instance that takes the period; `finish` records the end of its run.
export interface PeriodClaims {
  claim(task: string, period: number, now: number): Awaitable<boolean>
  finish(task: string, period: number, now: number): Awaitable<void>
}

export interface Scheduler {
  every(id: string, everyMs: number, run: Run, opts?: TaskOptions): void
  wake(id: string): void
  tick(): Promise<void>
  runNow(id: string): Promise<void>
  start(): void
  stop(): Promise<void>
  tasks(): TaskInfo[]
}

// Longest single sleep: bounds the drift if the wall clock jumps.
const MAX_SLEEP_MS = 30_000
// The timer's first wake after start(): the tasks due at start (the queue's drain, the purges)
// run this long after the site begins to listen, so that the first requests, a health check
// among them, are not answered behind them (about 4 ms of SQLite work). A task woken meanwhile
// (a vote's deliveries) runs at once, as always.
const START_GRACE_MS = 250

// Without `claims` (one process on its database), every task runs in this process.
export function createScheduler(clock: Clock, log: Logger, claims: PeriodClaims | null = null): Scheduler {
  const tasks = new Map<string, Task>()
  let timer: ReturnType<typeof setTimeout> | null = null
  let started = false
  let stopping = false
  let stopped = new AbortController()
  // Before this moment (performance.now()), set by start(), the timer does not fire.
  let quietUntil = 0
  // Tasks whose wake is to run them right after the current turn.
  const woken = new Set<Task>()

  const nextAfter = (t: Task, now: number) => (t.aligned ? (Math.floor(now / t.everyMs) + 1) * t.everyMs : now + t.everyMs)

  // Runs the task, unless another instance has claimed its period; answers whether it ran.
  async function runClaimed(t: Task, startedAt: number, claim: boolean): Promise<boolean> {
    if (!claim || !t.once || !claims) {
      await t.run(startedAt, stopped.signal)
      return true
    }
    const period = startedAt - (startedAt % t.everyMs)
    if (!(await claims.claim(t.id, period, startedAt))) return false
    await t.run(startedAt, stopped.signal)
    await claims.finish(t.id, period, clock.now())
    return true
  }

  // `claim` false: run even if another instance has claimed the period (runNow).
  function launch(t: Task, claim = true): Promise<void> {
    if (t.current) {
      t.again = true
      return t.current
    }
    const startedAt = clock.now()
    t.running = true
    t.current = (async () => {
      let ran = true
      try {
        ran = await runClaimed(t, startedAt, claim)
        if (ran) t.lastError = null
      } catch (e) {
        t.lastError = errorText(e)
        log.error(`task ${t.id} failed`, { error: e })
      } finally {
        if (ran) {
          t.runs++
          t.lastRunAt = startedAt
          t.lastDurationMs = clock.now() - startedAt
        } else t.leftToOthers++
        t.running = false
        t.current = null
        t.nextRunAt = nextAfter(t, t.aligned ? clock.now() : startedAt)
        if (t.again && !stopping) {
          t.again = false
          t.nextRunAt = clock.now()
          if (started) runSoon(t)
        }
        arm()
      }
    })()
    return t.current
  }

  // On the live timer, a task due now (woken, or woken again during its run) starts right after
  // the current turn of the event loop (setImmediate), not on a timer: even a 0 ms timer waits
  // about a millisecond, which every vote's deliveries would wait (each enqueue wakes the job
  // queue's drain). The wakes of one turn make one run.
  function runSoon(t: Task) {
    if (woken.has(t)) return
    woken.add(t)
    setImmediate(() => {
      woken.delete(t)
      if (started && !stopping && !t.current) void launch(t)
    })
  }

  function due(now: number) {
    return [...tasks.values()].filter((t) => !t.current && t.nextRunAt <= now)
  }

  function arm() {
    if (!started || stopping) return
    if (timer) clearTimeout(timer)
    const idle = [...tasks.values()].filter((t) => !t.current)
    if (!idle.length) { timer = null; return }
    const next = Math.min(...idle.map((t) => t.nextRunAt))
    const wait = Math.max(0, Math.min(next - clock.now(), MAX_SLEEP_MS), quietUntil - performance.now())
    timer = setTimeout(() => {
      timer = null
      for (const t of due(clock.now())) launch(t)
      arm()
    }, wait)
  }

  return {
    every(id, everyMs, run, opts = {}) {
      if (tasks.has(id)) throw new Error(`task ${id} is already scheduled`)
      if (!(everyMs > 0)) throw new Error(`task ${id}: period must be positive`)
      const aligned = opts.align ?? false
      const t: Task = {
        id, title: opts.title ?? id, everyMs, aligned, run, once: opts.once ?? false, running: false, runs: 0, leftToOthers: 0, again: false, current: null,
        lastRunAt: null, lastDurationMs: null, lastError: null, nextRunAt: 0,
      }
      t.nextRunAt = aligned ? nextAfter(t, clock.now()) : clock.now()
      tasks.set(id, t)
      arm()
    },
    // Run a task as soon as possible (runSoon); if it is running, run it once more right after.
    wake(id) {
      const t = tasks.get(id)
      if (!t || stopping) return
      if (t.current) { t.again = true; return }
      t.nextRunAt = Math.min(t.nextRunAt, clock.now())
      if (started) runSoon(t)
      else arm()
    },
    async tick() {
      await Promise.all(due(clock.now()).map((t) => launch(t)))
    },
    // Runs a task now, in this instance, whoever has claimed its period.
    async runNow(id) {
      const t = tasks.get(id)
      if (!t) throw new Error(`no task ${id}`)
      await launch(t, false)
    },
    start() {
      started = true
      stopping = false
      if (stopped.signal.aborted) stopped = new AbortController()
      quietUntil = performance.now() + START_GRACE_MS
      arm()
    },
    async stop() {
      stopping = true
      stopped.abort()
      if (timer) clearTimeout(timer)
      timer = null
      await Promise.all([...tasks.values()].map((t) => t.current))
    },
    tasks: () => [...tasks.values()].map(({ run: _r, once: _o, again: _a, current: _c, ...info }) => ({ ...info })),
  }
}
