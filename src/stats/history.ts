import { iso } from '../http/schema.ts'
import { DAY, HOUR, type RawRow, type RollupRow, type Series, type StatsRepo } from './repo.ts'
import type { HistoryResponse, Range } from './schema.ts'
import { exactMedian, histogramMedian, mergeEncoded, type Histogram } from './sketch.ts'

// The contract's range/step table and where each range is read from. 24h: raw samples. 7d and 30d:
// hourly rollups (their windows are whole hours, so slices and summary are exact) plus the exact
// median of the raw samples (kept at least 30 days). 90d, 1y, all: daily
// rollups, exact too except the median, taken from the rollups' histograms (within 1 %, sketch.ts).
const MIN = 60_000
export const RANGES = {
  '24h': { step: '5 min', stepMs: 5 * MIN, slices: 288, source: 'raw' },
  '7d': { step: '1 h', stepMs: HOUR, slices: 168, source: 'hourly' },
  '30d': { step: '6 h', stepMs: 6 * HOUR, slices: 120, source: 'hourly' },
  '90d': { step: '1 d', stepMs: DAY, slices: 90, source: 'daily' },
  '1y': { step: '1 d', stepMs: DAY, slices: 365, source: 'daily' },
  all: { step: '1 w', stepMs: 7 * DAY, slices: null, source: 'daily' },
} as const satisfies Record<Range, { step: string; stepMs: number; slices: number | null; source: 'raw' | 'hourly' | 'daily' }>

export type History = typeof HistoryResponse.static
type Summary = History['summary']
type Point = History['points'][number]

// Slices start at UTC multiples of the step (for "1 w", multiples of 7 days since the epoch: a
// Thursday 00:00 UTC). The window holds `slices` slices ending with the one that contains `now`.
export function rangeWindow(range: Range, now: number): { from: number; to: number } {
  const { stepMs, slices } = RANGES[range]
  return { from: slices === null ? 0 : now - (now % stepMs) - (slices - 1) * stepMs, to: now }
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits
const EMPTY: Summary = { avg: 0, median: 0, min: 0, peak: 0, uptime: 0, points: 0 }

// Accumulates rows (in time order, so each slice is a run of consecutive rows) into the points and
// the summary. A row stands for `values` values with the given sum, min and max, and `measured`
// server measurements of which `up` succeeded.
function accumulator(stepMs: number) {
  const points: Point[] = []
  let values = 0, sum = 0, min = Infinity, peak = -Infinity, up = 0, measured = 0
  let slice = -1, n = 0, sliceSum = 0, sliceMax = -Infinity
  const flush = () => { if (n) points.push({ t: iso(slice), avg: round(sliceSum / n, 2), max: sliceMax }) }
  return {
    add(t: number, rowValues: number, rowSum: number, rowMin: number, rowMax: number, rowUp: number, rowMeasured: number) {
      const s = t - (t % stepMs)
      if (s !== slice) {
        flush()
        slice = s; n = 0; sliceSum = 0; sliceMax = -Infinity
      }
      n += rowValues; sliceSum += rowSum
      if (rowMax > sliceMax) sliceMax = rowMax
      values += rowValues; sum += rowSum; up += rowUp; measured += rowMeasured
      if (rowMin < min) min = rowMin
      if (rowMax > peak) peak = rowMax
    },
    finish(median: number | null): { summary: Summary; points: Point[] } {
      flush()
      if (!values) return { summary: EMPTY, points: [] }
      return {
        points,
        summary: {
          avg: round(sum / values, 2), median: round(median ?? 0, 2), min, peak,
          uptime: measured ? round(up / measured, 4) : 0, points: measured,
        },
      }
    },
  }
}

export function fromRaw(rows: RawRow[], stepMs: number) {
  const acc = accumulator(stepMs)
  const values = new Float64Array(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const [t, v, measured, up] = rows[i]
    acc.add(t, 1, v, v, v, up, measured)
    values[i] = v
  }
  return acc.finish(exactMedian(values))
}

// `exact()`: the exact median of the raw values behind the rows; without it, the median comes
// from the rows' histograms.
export function fromRollups(rows: RollupRow[], stepMs: number, exact?: () => number | null) {
  const acc = accumulator(stepMs)
  const hist: Histogram = []
  for (const [t, values, measured, up, sum, min, max, h] of rows) {
    acc.add(t, values, sum, min, max, up, measured)
    if (!exact) mergeEncoded(hist, h)
  }
  return acc.finish(exact ? (rows.length ? exact() : null) : histogramMedian(hist))
}

async function build(series: Series, range: Range, now: number): Promise<History> {
  const { step, stepMs, source } = RANGES[range]
  const { from, to } = rangeWindow(range, now)
  let body
  if (source === 'raw') body = fromRaw(await series.raw(from, to), stepMs)
  else if (source === 'daily') body = fromRollups(await series.daily(from, to), stepMs)
  else {
    const rows = await series.hourly(from, to)
    // The exact median of the raw values: read only when the rollups hold something.
    const values = rows.length ? await series.values(from, to) : null
    body = fromRollups(rows, stepMs, values ? () => exactMedian(values) : undefined)
  }
  return { ok: true, range, step, ...body }
}

export const serverHistory = (stats: StatsRepo, serverNum: number, range: Range, now: number) => build(stats.serverSeries(serverNum), range, now)
export const globalHistory = (stats: StatsRepo, scope: string, range: Range, now: number) => build(stats.globalSeries(scope), range, now)

// The global series are kept per scope; a scope names the filters of the request.
export function scopeOf(filter: { edition?: string; mode?: string }): string {
  if (filter.edition && filter.mode) return `edition:${filter.edition}/mode:${filter.mode}`
  if (filter.edition) return `edition:${filter.edition}`
  if (filter.mode) return `mode:${filter.mode}`
  return 'all'
}

// Every scope a server's measurement counts in.
export function scopesOfServer(edition: string, modes: readonly string[]): string[] {
  return ['all', scopeOf({ edition }), ...modes.flatMap((mode) => [scopeOf({ mode }), scopeOf({ edition, mode })])]
}

// CSV form of a history: the points as `t,avg,max` lines, the same numbers as the JSON.
export function historyCsv(h: History): string {
  return ['t,avg,max', ...h.points.map((p) => `${p.t},${p.avg},${p.max}`)].join('\n') + '\n'
}
