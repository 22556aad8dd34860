import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { registerSiteWork } from '../../src/site.ts'
import { DAY } from '../../src/stats/repo.ts'
import { runPingRound, spreadOut } from '../../src/stats/round.ts'
import { bedrockServer, javaServer, refusedPort, type Peer } from './peers.ts'
import { cleanupTemp, seedServer, testRuntime, type TestRuntime } from '../helpers.ts'

const INTERVAL = 60_000
const START = Date.UTC(2026, 10, 22, 12, 0, 0)

describe('ping rounds', () => {
  let java: Peer
  let bedrock: Peer
  let refused: number
  beforeAll(async () => {
    java = await javaServer({ online: 13, max: 100, motd: 'Java side' })
    bedrock = await bedrockServer({ online: 7, max: 40, motd: 'Bedrock side', level: 'w' })
    refused = await refusedPort()
  })
  afterAll(async () => {
    await java.close()
    await bedrock.close()
    cleanupTemp()
  })

  async function site(intervalMs = INTERVAL) {
    // The peers answer: a timeout they miss only when something is wrong (the refused port fails at once).
    const rt = testRuntime({ network: { allow_private_targets: true }, stats: { ping_interval_seconds: intervalMs / 1000, ping_timeout_seconds: 10 } }, START + 12_345)
    const a = (await seedServer(rt, { name: 'Java One', host: '127.0.0.1', port: java.port, modes: ['survival', 'skyblock'] })).server
    const b = (await seedServer(rt, { name: 'Bedrock One', host: '127.0.0.1', port: bedrock.port, edition: 'bedrock', modes: ['skyblock'] })).server
    const c = (await seedServer(rt, { name: 'Gone One', host: '127.0.0.1', port: refused, modes: ['pvp'] })).server
    const hidden = (await seedServer(rt, { name: 'Hidden One', host: '127.0.0.1', port: java.port })).server
    rt.db.run('UPDATE server SET hidden = 1 WHERE id = ?', [hidden.id])
    return { rt, a, b, c, hidden }
  }
  const rows = (rt: TestRuntime, sql: string, ...args: (string | number)[]) => rt.db.query(sql).all(...args)

  test('a round measures every listed server, stamps the round start and writes status, sample and rollups', async () => {
    const { rt, a, b, c, hidden } = await site()
    const report = await runPingRound(rt, rt.clock.now(), { spreadMs: 0 })
    expect(report).toMatchObject({ t: START, servers: 3, up: 2, players: 20 })
    expect(rt.store.servers.status(a.num)).toMatchObject({ online: true, playersOnline: 13, playersMax: 100, motd: 'Java side', version: '1.21.4', error: null })
    expect(rt.store.servers.status(b.num)).toMatchObject({ online: true, playersOnline: 7, playersMax: 40, motd: 'Bedrock side\nw' })
    expect(rt.store.servers.status(c.num)).toMatchObject({ online: false, playersOnline: 0, error: 'connection refused' })
    expect(rt.store.servers.status(hidden.num)).toBeNull()
    expect(rows(rt, 'SELECT server_num AS n, t, players, up FROM ping_sample ORDER BY server_num')).toEqual([
      { n: a.num, t: START, players: 13, up: 1 }, { n: b.num, t: START, players: 7, up: 1 }, { n: c.num, t: START, players: 0, up: 0 },
    ])
    expect(rows(rt, 'SELECT t, samples, up, sum, min, max FROM ping_hourly WHERE server_num = ?', a.num)).toEqual([{ t: START, samples: 1, up: 1, sum: 13, min: 13, max: 13 }])
    expect(rows(rt, 'SELECT t, samples, up, sum FROM ping_daily WHERE server_num = ?', c.num)).toEqual([{ t: START - (START % DAY), samples: 1, up: 0, sum: 0 }])
    const global = Object.fromEntries((rows(rt, 'SELECT scope, players, servers, up FROM global_sample WHERE t = ?', START) as { scope: string }[]).map(({ scope, ...r }) => [scope, r]))
    expect(global).toEqual({
      all: { players: 20, servers: 3, up: 2 },
      'edition:java': { players: 13, servers: 2, up: 1 },
      'edition:bedrock': { players: 7, servers: 1, up: 1 },
      'mode:survival': { players: 13, servers: 1, up: 1 },
      'mode:skyblock': { players: 20, servers: 2, up: 2 },
      'mode:pvp': { players: 0, servers: 1, up: 0 },
      'edition:java/mode:survival': { players: 13, servers: 1, up: 1 },
      'edition:java/mode:skyblock': { players: 13, servers: 1, up: 1 },
      'edition:bedrock/mode:skyblock': { players: 7, servers: 1, up: 1 },
      'edition:java/mode:pvp': { players: 0, servers: 1, up: 0 },
    })
  })

  test('the same round twice counts once; the next round adds to the rollups', async () => {
    const { rt, a } = await site()
    await runPingRound(rt, rt.clock.now(), { spreadMs: 0 })
    await runPingRound(rt, rt.clock.now() + 1000, { spreadMs: 0 })
    expect(rows(rt, 'SELECT count(*) AS n FROM ping_sample')).toEqual([{ n: 3 }])
    expect(rows(rt, "SELECT rounds, servers FROM global_hourly WHERE scope = 'all'")).toEqual([{ rounds: 1, servers: 3 }])
    rt.clock.advance(INTERVAL)
    await runPingRound(rt, rt.clock.now(), { spreadMs: 0 })
    expect(rows(rt, 'SELECT t FROM ping_sample WHERE server_num = ? ORDER BY t', a.num)).toEqual([{ t: START }, { t: START + INTERVAL }])
    expect(rows(rt, 'SELECT samples, up, sum, min, max FROM ping_hourly WHERE server_num = ?', a.num)).toEqual([{ samples: 2, up: 2, sum: 26, min: 13, max: 13 }])
    expect(rows(rt, "SELECT rounds, servers, up, sum, min, max FROM global_daily WHERE scope = 'all'")).toEqual([{ rounds: 2, servers: 6, up: 4, sum: 40, min: 20, max: 20 }])
  })

  test('the scheduler runs rounds on multiples of the interval, stamped with that multiple', async () => {
    const { rt, a, b, c } = await site(2000)
    registerSiteWork(rt)
    const task = rt.scheduler.tasks().find((t) => t.id === 'stats.ping')!
    expect(task).toMatchObject({ everyMs: 2000, aligned: true, nextRunAt: START + 14_000 })
    rt.clock.set(START + 14_005)
    await rt.scheduler.tick()
    expect(rows(rt, 'SELECT server_num AS n, t FROM ping_sample ORDER BY server_num')).toEqual([a, b, c].map((s) => ({ n: s.num, t: START + 14_000 })))
    expect(rt.scheduler.tasks().find((t) => t.id === 'stats.ping')!.nextRunAt).toBe(START + 16_000)
  })

  test('a round stopped by the scheduler records nothing', async () => {
    const { rt } = await site()
    const stop = new AbortController()
    // A spread no machine gets through before the stop: the round is surely cut short.
    const round = runPingRound(rt, rt.clock.now(), { spreadMs: DAY, signal: stop.signal })
    stop.abort()
    expect(await round).toBeNull()
    expect(rows(rt, 'SELECT count(*) AS n FROM ping_sample')).toEqual([{ n: 0 }])
    expect(rows(rt, 'SELECT count(*) AS n FROM global_sample')).toEqual([{ n: 0 }])
  })

  test('stopping the site ends a round that is still spreading its pings, without recording it', async () => {
    // Rounds a day apart spread their pings over 12 hours: only the stop can end this one before
    // the test's timeout.
    const { rt } = await site(DAY)
    registerSiteWork(rt)
    rt.clock.set(START + DAY)
    const round = rt.scheduler.runNow('stats.ping')
    await rt.scheduler.stop()
    await round
    expect(rows(rt, 'SELECT count(*) AS n FROM ping_sample')).toEqual([{ n: 0 }])
  })

  test('retention deletes raw samples past the configured days and keeps the rollups', async () => {
    const { rt, a } = await site()
    const now = rt.clock.now()
    for (const age of [40, 36, 34, 1]) {
      rt.clock.set(now - age * DAY)
      await runPingRound(rt, rt.clock.now(), { spreadMs: 0 })
    }
    rt.clock.set(now)
    registerSiteWork(rt)
    await rt.scheduler.runNow('stats.retention')
    const kept = (rows(rt, 'SELECT t FROM ping_sample WHERE server_num = ? ORDER BY t', a.num) as { t: number }[]).map((r) => Math.round((now - r.t) / DAY))
    expect(kept).toEqual([34, 1])
    expect((rows(rt, "SELECT t FROM global_sample WHERE scope = 'all'") as unknown[]).length).toBe(2)
    expect(rows(rt, 'SELECT count(*) AS n FROM ping_daily WHERE server_num = ?', a.num)).toEqual([{ n: 4 }])
    expect(rows(rt, 'SELECT count(*) AS n FROM ping_hourly WHERE server_num = ?', a.num)).toEqual([{ n: 4 }])
    expect(rows(rt, "SELECT count(*) AS n FROM global_daily WHERE scope = 'all'")).toEqual([{ n: 4 }])
    expect(rt.log.lines.some((l) => l.includes('purged raw ping samples'))).toBe(true)
  })
})

describe('spreading a round', () => {
  test('never more pings in flight than the concurrency, each after its offset in the spread', async () => {
    let inFlight = 0
    let most = 0
    const starts: number[] = []
    const t0 = performance.now()
    const results = await spreadOut([...Array(40).keys()], async (i) => {
      starts.push(performance.now() - t0)
      inFlight++
      most = Math.max(most, inFlight)
      await Bun.sleep(5)
      inFlight--
      return i * 2
    }, { concurrency: 4, spreadMs: 200 })
    expect(results).toEqual([...Array(40).keys()].map((i) => i * 2))
    expect(most).toBeLessThanOrEqual(4)
    // Spread: the starts are not one burst. No ping starts before its offset, so some start after
    // 100 ms (unless all 40 offsets fall in the first half: a chance of 2^-40); a slow machine can
    // only make them later.
    expect(Math.max(...starts)).toBeGreaterThanOrEqual(100)
  })
})
