import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { RANGES, rangeWindow, type History } from '../../src/stats/history.ts'
import { RANGE_NAMES, type Range } from '../../src/stats/schema.ts'
import { DAY, HOUR } from '../../src/stats/repo.ts'
import { recordRound } from '../../src/stats/round.ts'
import type { App } from '../../src/app.ts'
import { call, cleanupTemp, seedServer, testApp, testRuntime, type TestRuntime } from '../helpers.ts'

// Generated measurements written through the production write path (recordRound), then read
// back through the HTTP API and checked against a direct computation over the same measurements.

const MIN = 60_000
// A Sunday 14:37:21.5 UTC: inside every kind of slice, not on any boundary.
const NOW = Date.UTC(2026, 10, 22, 14, 37, 21, 500)
const FIVE = 5 * MIN

interface Sample { num: number; t: number; players: number; up: boolean }

// Deterministic players: a daily wave per server, some values above 64 (the sketch's exact limit);
// a failed ping every 13th round of server 2; server 3 never answers.
function model(num: number, t: number): { players: number; up: boolean } {
  const round = Math.floor(t / FIVE)
  if (num === 3 || (num === 2 && round % 13 === 0)) return { players: 0, up: false }
  const wave = Math.sin((2 * Math.PI * (t % DAY)) / DAY)
  return { players: Math.max(0, Math.round((num === 1 ? 60 : 15) + (num === 1 ? 45 : 10) * wave + ((round * 7919) % 11))), up: true }
}

// 5-minute rounds over the last 32 days; hourly rounds before that, back ~2.2 years; no rounds in
// the two "pinger was stopped" gaps.
const GAPS = [[NOW - 3 * HOUR - 20 * MIN, NOW - HOUR - 20 * MIN], [NOW - 50 * DAY, NOW - 47 * DAY]]
function roundTimes(): number[] {
  const out: number[] = []
  const dense = NOW - 32 * DAY
  for (let t = NOW - 800 * DAY - ((NOW - 800 * DAY) % HOUR); t < dense; t += HOUR) out.push(t)
  for (let t = dense - (dense % FIVE); t <= NOW; t += FIVE) out.push(t)
  return out.filter((t) => !GAPS.some(([a, b]) => t >= a && t < b))
}

let rt: TestRuntime
let app: App
let slug: Record<number, string>
const samples: Sample[] = []

beforeAll(async () => {
  rt = testRuntime({}, NOW)
  app = await testApp(rt)
  const s1 = (await seedServer(rt, { name: 'Big Java', modes: ['survival', 'skyblock'] })).server
  const s2 = (await seedServer(rt, { name: 'Small Bedrock', edition: 'bedrock', modes: ['skyblock'] })).server
  const s3 = (await seedServer(rt, { name: 'Dead Java', modes: ['pvp'] })).server
  expect([s1.num, s2.num, s3.num]).toEqual([1, 2, 3])
  slug = { 1: s1.slug, 2: s2.slug, 3: s3.slug }
  const targets = rt.store.servers.pingTargets()
  await rt.store.write(function* (tx) {
    for (const t of roundTimes()) {
      const measured = targets.map((target) => {
        const m = model(target.num, t)
        samples.push({ num: target.num, t, ...m })
        return { serverNum: target.num, serverId: target.id, at: t + 1000, status: { online: m.up, playersOnline: m.players, playersMax: 200, version: '1.21.4', motd: null, styledMotd: null, favicon: null, latencyMs: m.up ? 20 : null, error: m.up ? null : 'connection refused' } }
      })
      yield* recordRound(tx, t, targets, measured)
    }
  })
})
afterAll(cleanupTemp)

const get = async (path: string) => {
  const res = await call(app, 'GET', path)
  return { res, body: res.headers.get('content-type')?.startsWith('application/json') ? await res.json() : await res.text() }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const r2 = (x: number) => Math.round(x * 100) / 100

// The expected response computed directly: values per round (one server's players, or the sum
// over the matching servers), grouped by slice.
function direct(range: Range, rounds: { t: number; value: number; measured: number; up: number }[]) {
  const { stepMs } = RANGES[range]
  const { from } = rangeWindow(range, NOW)
  const inRange = rounds.filter((r) => r.t >= from && r.t <= NOW)
  const slices = new Map<number, number[]>()
  for (const r of inRange) {
    const s = r.t - (r.t % stepMs)
    slices.set(s, [...(slices.get(s) ?? []), r.value])
  }
  const values = inRange.map((r) => r.value)
  return {
    points: [...slices].map(([s, vs]) => ({ t: new Date(s).toISOString(), avg: r2(vs.reduce((a, b) => a + b, 0) / vs.length), max: Math.max(...vs) })),
    summary: {
      avg: r2(values.reduce((a, b) => a + b, 0) / values.length), median: median(values), min: Math.min(...values), peak: Math.max(...values),
      uptime: Math.round((inRange.reduce((a, r) => a + r.up, 0) / inRange.reduce((a, r) => a + r.measured, 0)) * 10_000) / 10_000,
      points: inRange.reduce((a, r) => a + r.measured, 0),
    },
  }
}

const serverRounds = (num: number) => samples.filter((s) => s.num === num).map((s) => ({ t: s.t, value: s.players, measured: 1, up: s.up ? 1 : 0 }))

function globalRounds(match: (num: number) => boolean) {
  const byT = new Map<number, { t: number; value: number; measured: number; up: number }>()
  for (const s of samples) {
    if (!match(s.num)) continue
    const r = byT.get(s.t) ?? { t: s.t, value: 0, measured: 0, up: 0 }
    r.value += s.up ? s.players : 0
    r.measured++
    r.up += s.up ? 1 : 0
    byT.set(s.t, r)
  }
  return [...byT.values()]
}

function expectMatches(range: Range, body: History, expected: ReturnType<typeof direct>) {
  const exact = RANGES[range].source !== 'daily'
  expect(body.points).toEqual(expected.points)
  const { median: m, ...rest } = body.summary
  const { median: em, ...expectedRest } = expected.summary
  expect(rest).toEqual(expectedRest)
  if (exact || em < 64) expect(m).toBe(em)
  else expect(Math.abs(m - em) / em).toBeLessThanOrEqual(0.01)
}

describe('history of one server', () => {
  test('every range: slices aligned to UTC multiples of the step, the contract\'s counts, t = slice start', async () => {
    // The contract's counts minus the slices wholly inside the gaps: 24 five-minute slices and
    // one hour of the 2-hour gap; two days of the 3-day gap.
    const expectedCounts: Record<Range, number> = { '24h': 288 - 24, '7d': 168 - 1, '30d': 120, '90d': 90 - 2, '1y': 365 - 2, all: 0 }
    for (const range of RANGE_NAMES) {
      const { res, body } = await get(`/api/v1/servers/${slug[1]}/history?range=${range}`)
      expect(res.status).toBe(200)
      const { step, stepMs, slices } = RANGES[range]
      expect(body).toMatchObject({ ok: true, range, step })
      const ts = (body as History).points.map((p) => Date.parse(p.t))
      for (const t of ts) expect(t % stepMs).toBe(0)
      expect(ts).toEqual([...ts].sort((a, b) => a - b))
      expect(ts.at(-1)).toBe(NOW - (NOW % stepMs))
      if (slices !== null) {
        expect(ts[0]).toBeGreaterThanOrEqual(NOW - (NOW % stepMs) - (slices - 1) * stepMs)
        expect(ts.length).toBe(expectedCounts[range])
      } else {
        // all: one point per week (Thursday 00:00 UTC, multiples of 7 days since the epoch) from the first sample's week.
        const first = samples[0].t
        expect(ts[0]).toBe(first - (first % stepMs))
        expect(new Date(ts[0]).getUTCDay()).toBe(4)
        expect(ts.length).toBe((ts.at(-1)! - ts[0]) / stepMs + 1)
      }
    }
  })

  test('the full 24h, 7d and 30d windows: 288, 168 and 120 slices when no round is missing', async () => {
    // Server 1's data has gaps; count on a window before the gaps by asking at an earlier moment.
    const earlier = NOW - 4 * HOUR
    rt.clock.set(earlier)
    try {
      const day = (await get(`/api/v1/servers/${slug[1]}/history?range=24h`)).body as History
      expect(day.points.length).toBe(288)
      expect(Date.parse(day.points[0].t)).toBe(earlier - (earlier % FIVE) - 287 * FIVE)
      const week = (await get(`/api/v1/servers/${slug[1]}/history?range=7d`)).body as History
      expect(week.points.length).toBe(168)
      const month = (await get(`/api/v1/servers/${slug[1]}/history?range=30d`)).body as History
      expect(month.points.length).toBe(120)
    } finally {
      rt.clock.set(NOW)
    }
  })

  test('slices without a measurement are left out; failed pings are measurements (0 players, down)', async () => {
    const day = (await get(`/api/v1/servers/${slug[1]}/history?range=24h`)).body as History
    const ts = new Set(day.points.map((p) => Date.parse(p.t)))
    const firstMissing = GAPS[0][0] - (GAPS[0][0] % FIVE) + FIVE
    for (let t = firstMissing; t < GAPS[0][1]; t += FIVE) expect(ts.has(t)).toBe(false)
    expect(ts.has(firstMissing - FIVE)).toBe(true)
    expect(ts.has(GAPS[0][1] - (GAPS[0][1] % FIVE) + FIVE)).toBe(true)
    const dead = (await get(`/api/v1/servers/${slug[3]}/history?range=24h`)).body as History
    expect(dead.points.length).toBe(day.points.length)
    expect(dead.points.every((p) => p.avg === 0 && p.max === 0)).toBe(true)
    expect(dead.summary).toEqual({ avg: 0, median: 0, min: 0, peak: 0, uptime: 0, points: day.summary.points })
  })

  for (const range of RANGE_NAMES) {
    test(`${range}: points and summary equal a direct computation over the measurements`, async () => {
      for (const num of [1, 2]) {
        const { body } = await get(`/api/v1/servers/${slug[num]}/history?range=${range}`)
        expectMatches(range, body as History, direct(range, serverRounds(num)))
      }
    })
  }

  test('CSV: same points as the JSON, as an attachment named <slug>-<range>.csv', async () => {
    for (const range of RANGE_NAMES) {
      const json = (await get(`/api/v1/servers/${slug[2]}/history?range=${range}`)).body as History
      const { res, body } = await get(`/api/v1/servers/${slug[2]}/history?range=${range}&format=csv`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${slug[2]}-${range}.csv"`)
      const [header, ...lines] = (body as string).trimEnd().split('\n')
      expect(header).toBe('t,avg,max')
      expect(lines.map((l) => { const [t, avg, max] = l.split(','); return { t, avg: Number(avg), max: Number(max) } })).toEqual(json.points)
    }
  })

  test('bad parameters and unknown or hidden slugs', async () => {
    const bad = await get(`/api/v1/servers/${slug[1]}/history?range=2d`)
    expect(bad.res.status).toBe(400)
    expect(bad.body).toEqual({ ok: false, error: { code: 'INVALID_PARAMETER', message: 'range must be one of 24h, 7d, 30d, 90d, 1y, all', field: 'range' } })
    const fmt = await get(`/api/v1/servers/${slug[1]}/history?format=xml`)
    expect(fmt.body).toEqual({ ok: false, error: { code: 'INVALID_PARAMETER', message: 'format must be one of json, csv', field: 'format' } })
    expect((await get('/api/v1/servers/no-such-server/history')).res.status).toBe(404)
    const defaulted = (await get(`/api/v1/servers/${slug[1]}/history`)).body as History
    expect(defaulted).toMatchObject({ range: '24h', step: '5 min' })
  })
})

describe('global statistics', () => {
  const filters: [string, (num: number) => boolean][] = [
    ['', () => true],
    ['edition=java', (n) => n !== 2],
    ['edition=bedrock', (n) => n === 2],
    ['mode=skyblock', (n) => n !== 3],
    ['mode=pvp', (n) => n === 3],
    ['edition=java&mode=skyblock', (n) => n === 1],
    ['edition=bedrock&mode=pvp', () => false],
  ]
  for (const range of RANGE_NAMES) {
    test(`${range}: per-round sums over the matching servers, for every filter`, async () => {
      for (const [filter, match] of filters) {
        const { res, body } = await get(`/api/v1/stats/global?range=${range}${filter ? `&${filter}` : ''}`)
        expect(res.status).toBe(200)
        const rounds = globalRounds(match)
        if (!rounds.length) {
          expect(body).toEqual({ ok: true, range, step: RANGES[range].step, summary: { avg: 0, median: 0, min: 0, peak: 0, uptime: 0, points: 0 }, points: [] })
          continue
        }
        try {
          expectMatches(range, body as History, direct(range, rounds))
        } catch (e) {
          throw new Error(`filter "${filter}": ${(e as Error).message}`)
        }
      }
    })
  }

  test('filters outside the allowed values are refused with the allowed values named', async () => {
    const edition = await get('/api/v1/stats/global?edition=pocket')
    expect(edition.res.status).toBe(400)
    expect(edition.body).toEqual({ ok: false, error: { code: 'INVALID_PARAMETER', message: 'edition must be one of java, bedrock', field: 'edition' } })
    const mode = await get('/api/v1/stats/global?mode=Survival')
    expect(mode.res.status).toBe(400)
    expect(mode.body).toEqual({ ok: false, error: { code: 'INVALID_PARAMETER', message: `mode must be one of ${rt.config.servers.modes.join(', ')}`, field: 'mode' } })
    expect((await get('/api/v1/stats/global?range=1d')).res.status).toBe(400)
  })

  test('a parameter given twice with different values is 400 naming it, not its last value silently', async () => {
    for (const [path, field] of [
      ['/api/v1/stats/global?mode=skyblock&mode=pvp', 'mode'], ['/api/v1/stats/global?edition=java&edition=bedrock', 'edition'],
      [`/api/v1/servers/${slug[1]}/history?range=7d&range=30d`, 'range'], [`/api/v1/servers/${slug[1]}/history?format=csv&format=json`, 'format'],
      [`/api/v1/servers/${slug[1]}/badge.svg?theme=light&theme=dark`, 'theme'],
    ]) {
      const { res, body } = await get(path)
      expect({ path, status: res.status, body }).toEqual({
        path, status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message: `${field} is given several times with different values; give it once`, field } },
      })
      expect(res.headers.get('ratelimit-limit')).not.toBeNull()
    }
    const same = await get('/api/v1/stats/global?range=7d&range=7d')
    expect([same.res.status, (same.body as History).range]).toEqual([200, '7d'])
  })
})
