import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { registerSiteWork } from '../../src/site.ts'
import { backends, closeTestSites } from '../backends.ts'
import { cleanupTemp, siteAgain, siteOn, testApp, type BackendRuntime } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)
afterEach(closeTestSites)

const MIN = 60_000
// Tasks that run once per period across the instances, and those every instance runs for itself.
const ONCE = ['captcha.purge', 'limits.sweep', 'sessions.purge', 'stats.ping', 'stats.retention']
const EACH = ['jobs.drain', 'keys.last-used', 'servers.purge']

const runsOf = (sites: BackendRuntime[], id: string) => sites.map((s) => s.scheduler.tasks().find((t) => t.id === id)!.runs)

describe.if(backends.includes('postgres'))('scheduled tasks of several instances on PostgreSQL', () => {
  test('each `once` task runs once per period across the instances, whichever claims it; the others run in each', async () => {
    const a = await siteOn('postgres', { stats: { ping_interval_seconds: 60 } })
    const sites = [a, await siteAgain(a), await siteAgain(a)]
    for (const s of sites) registerSiteWork(s)
    const ids = sites[0].scheduler.tasks().map((t) => t.id).sort()
    expect(ids).toEqual([...ONCE, ...EACH].sort())
    // Every instance fires at the same moment, 10 times a minute apart.
    for (let i = 0; i < 10; i++) {
      a.clock.set(Math.floor(a.clock.now() / MIN) * MIN + MIN)
      await Promise.all(sites.map((s) => s.scheduler.tick()))
    }
    const total = (id: string) => runsOf(sites, id).reduce((n, r) => n + r, 0)
    expect(total('stats.ping')).toBe(10)
    expect(total('limits.sweep')).toBe(10)
    for (const id of ['captcha.purge', 'sessions.purge', 'stats.retention']) expect(total(id)).toBe(1) // still in their first period
    for (const id of EACH) expect(runsOf(sites, id).every((n) => n >= 10)).toBe(true)
    const left = sites.flatMap((s) => s.scheduler.tasks().filter((t) => t.id === 'stats.ping').map((t) => t.leftToOthers))
    expect(left.reduce((n, r) => n + r, 0)).toBe(20)
    // The administrator's view of each instance: every period either run there or left to another.
    const admin = await ownerSession(a, 'admin@example.com')
    for (const s of sites) {
      const { body } = await json(await as(await testApp(s), admin.headers)('GET', '/api/v1/admin/tasks'))
      const ping = (body.tasks as { id: string; runs: number; leftToOthers: number }[]).find((t) => t.id === 'stats.ping')!
      expect(ping.runs + ping.leftToOthers).toBe(10)
    }
    expect(await a.rows('SELECT task, period, finished_at AS "finishedAt" FROM task_run WHERE task = ?', 'stats.ping'))
      .toEqual([{ task: 'stats.ping', period: a.clock.now(), finishedAt: a.clock.now() }])
  })

  test('when the instance that ran a task is gone, another runs it from the next period on', async () => {
    const a = await siteOn('postgres', { stats: { ping_interval_seconds: 300 } })
    const b = await siteAgain(a)
    for (const s of [a, b]) registerSiteWork(s)
    const boundary = () => a.clock.set(Math.floor(a.clock.now() / (5 * MIN)) * 5 * MIN + 5 * MIN)
    boundary()
    // A fires first and takes the round; B, a moment later, leaves it to A.
    await a.scheduler.tick()
    await b.scheduler.tick()
    expect(runsOf([a, b], 'stats.ping')).toEqual([1, 0])
    // A dies: B alone fires at the next boundaries, and runs every round.
    await a.scheduler.stop()
    for (let i = 0; i < 3; i++) {
      boundary()
      await b.scheduler.tick()
    }
    expect(runsOf([a, b], 'stats.ping')).toEqual([1, 3])
    expect(await a.row('SELECT holder FROM task_run WHERE task = ?', 'stats.ping')).toEqual({ holder: b.instance })
  })
})
