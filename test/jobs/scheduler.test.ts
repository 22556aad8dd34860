import { describe, expect, test } from 'bun:test'
import { manualClock, systemClock } from '../../src/clock.ts'
import { createScheduler } from '../../src/jobs/scheduler.ts'
import { memoryLogger } from '../../src/log.ts'
import { until } from '../until.ts'

describe('scheduler', () => {
  test('periodic tasks run when due, driven by the clock without sleeping', async () => {
    const clock = manualClock(1_000_000)
    const s = createScheduler(clock, memoryLogger())
    const runs: number[] = []
    s.every('t', 1000, (now) => { runs.push(now) })
    await s.tick()
    expect(runs).toEqual([1_000_000])
    await s.tick()
    expect(runs.length).toBe(1)
    clock.advance(999)
    await s.tick()
    expect(runs.length).toBe(1)
    clock.advance(1)
    await s.tick()
    expect(runs).toEqual([1_000_000, 1_001_000])
  })

  test('aligned tasks run on multiples of their period since the epoch', async () => {
    const clock = manualClock(300_000 * 10 + 123_456)
    const s = createScheduler(clock, memoryLogger())
    const runs: number[] = []
    s.every('round', 300_000, (now) => { runs.push(now) }, { align: true })
    expect(s.tasks()[0].nextRunAt).toBe(300_000 * 11)
    await s.tick()
    expect(runs).toEqual([])
    clock.set(300_000 * 11 + 5)
    await s.tick()
    expect(runs).toEqual([300_000 * 11 + 5])
    expect(s.tasks()[0].nextRunAt).toBe(300_000 * 12)
  })

  test('a task never overlaps itself; a wake during a run runs it once more after', async () => {
    const clock = manualClock()
    const s = createScheduler(clock, memoryLogger())
    let active = 0
    let peak = 0
    let runs = 0
    let release!: () => void
    s.every('slow', 10, async () => {
      runs++
      active++
      peak = Math.max(peak, active)
      if (runs === 1) await new Promise<void>((r) => { release = r })
      active--
    })
    const first = s.runNow('slow')
    clock.advance(1000)
    await s.tick() // due, but running: not launched a second time
    s.wake('slow')
    s.wake('slow')
    expect(runs).toBe(1)
    release()
    await first
    await s.tick()
    expect(peak).toBe(1)
    expect(runs).toBe(2)
  })

  test('a `once` task runs only where its period is claimed; other tasks and runNow do not ask', async () => {
    const clock = manualClock(60_000 * 100 + 1234)
    const asked: [string, number][] = []
    const finished: [string, number][] = []
    let grant = false
    const s = createScheduler(clock, memoryLogger(), {
      claim: (task, period) => { asked.push([task, period]); return grant },
      finish: (task, period) => { finished.push([task, period]) },
    })
    const runs: string[] = []
    s.every('shared', 60_000, () => { runs.push('shared') }, { once: true })
    s.every('local', 60_000, () => { runs.push('local') })
    await s.tick()
    expect(runs).toEqual(['local'])
    expect(asked).toEqual([['shared', 60_000 * 100]])
    expect(s.tasks().map((t) => [t.id, t.runs, t.leftToOthers, t.lastRunAt])).toEqual([['shared', 0, 1, null], ['local', 1, 0, 60_000 * 100 + 1234]])
    grant = true
    clock.advance(60_000)
    await s.tick()
    expect(runs.toSorted()).toEqual(['local', 'local', 'shared'])
    expect(asked.at(-1)).toEqual(['shared', 60_000 * 101])
    expect(finished).toEqual([['shared', 60_000 * 101]])
    grant = false
    await s.runNow('shared')
    expect(runs.at(-1)).toBe('shared')
    expect(asked).toHaveLength(2)
  })

  test('a failing task is logged, keeps its schedule, and shows its error', async () => {
    const clock = manualClock()
    const log = memoryLogger()
    const s = createScheduler(clock, log)
    s.every('bad', 1000, () => { throw new Error('nope') })
    await s.tick()
    const [info] = s.tasks()
    expect(info).toMatchObject({ id: 'bad', runs: 1, lastError: 'nope', running: false, nextRunAt: clock.now() + 1000 })
    expect(log.lines.some((l) => l.includes('task bad failed'))).toBe(true)
  })

  test('started, it runs tasks on its own timer; stop waits for the running task', async () => {
    const s = createScheduler(systemClock, memoryLogger())
    let runs = 0
    let finished = false
    let release!: () => void
    s.every('quick', 20, async () => {
      runs++
      await new Promise<void>((r) => { release = r })
      finished = true
    })
    s.start()
    await until(() => runs === 1, 'the first run on the timer')
    let stopped = false
    const stopping = s.stop().then(() => { stopped = true })
    await Bun.sleep(0) // every pending callback has run: a stop that did not wait would be done
    expect(stopped).toBe(false)
    release()
    await stopping
    expect(finished).toBe(true)
    // Stopped: no timer is left to run it again (20 ms periods, watched for 60 ms).
    await Bun.sleep(60)
    expect(runs).toBe(1)
  })

  // A start answers its first requests before the work due at start (the drain, the purges).
  test('started, the tasks due at start wait out a quarter of a second; a wake meanwhile runs at once', async () => {
    const s = createScheduler(systemClock, memoryLogger())
    const ran: Record<string, number> = {}
    s.every('purge', 60_000, () => { ran.purge = performance.now() })
    s.every('drain', 60_000, () => { ran.drain = performance.now() })
    const startedAt = performance.now()
    s.start()
    s.wake('drain')
    await until(() => ran.drain !== undefined, 'the woken task')
    await until(() => ran.purge !== undefined, 'the task due at start')
    expect(ran.purge - startedAt).toBeGreaterThanOrEqual(245)
    await s.stop()
  })

  test('wake runs an idle task at once on the live timer', async () => {
    const s = createScheduler(systemClock, memoryLogger())
    let runs = 0
    s.every('lazy', 60_000, () => { runs++ })
    s.start()
    await until(() => runs === 1, 'the first run')
    s.wake('lazy')
    await until(() => runs === 2, 'the run the wake asked for')
    await s.stop()
  })

  test('a task failing with a value no log line can write as JSON (a cycle, a BigInt) is logged, and the scheduler goes on', async () => {
    const clock = manualClock()
    const log = memoryLogger()
    const s = createScheduler(clock, log)
    const cyclic: Record<string, unknown> = { reason: 'a cycle' }
    cyclic.self = cyclic
    const thrown: unknown[] = [cyclic, 10n]
    let runs = 0
    s.every('odd', 1000, () => {
      runs++
      throw thrown.shift()
    })
    await s.runNow('odd')
    await s.runNow('odd')
    expect(runs).toBe(2)
    const lines = log.lines.filter((l) => l.includes('task odd failed'))
    expect(lines).toHaveLength(2)
    // The cycle as Bun prints it, in the line's JSON.
    expect(JSON.parse(lines[0].slice(lines[0].indexOf('{'))).error).toContain('reason: "a cycle"')
    expect(lines[1]).toContain('"error":"10"')
    expect(s.tasks()[0].lastError).toBe('10')
  })

  test('a task failing with a value String() cannot write (an object without a prototype) shows it as Bun prints it, and the scheduler goes on', async () => {
    const s = createScheduler(manualClock(), memoryLogger())
    let runs = 0
    s.every('bare', 1000, () => {
      runs++
      if (runs === 1) throw Object.assign(Object.create(null), { reason: 'no prototype' })
    })
    await s.runNow('bare')
    expect(s.tasks()[0].lastError).toContain('reason: "no prototype"')
    await s.runNow('bare')
    expect(runs).toBe(2)
    expect(s.tasks()[0].lastError).toBeNull()
  })
})
