import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { addValue, bucketOf, bucketValue, encodeHistogram, exactMedian, histogramMedian, mergeEncoded, type Histogram } from '../../src/stats/sketch.ts'

describe('median sketch of the daily rollups', () => {
  test('encoding then merging gives back the counts', () => {
    fc.assert(fc.property(fc.array(fc.nat({ max: 5_000_000 }), { maxLength: 300 }), (values) => {
      const h: Histogram = []
      for (const v of values) addValue(h, v)
      const back: Histogram = []
      mergeEncoded(back, encodeHistogram(h))
      expect(back.map((c) => c ?? 0)).toEqual(h.map((c) => c ?? 0))
    }))
  })

  test('every value is within 1 % of its bucket\'s value; below 64 exact', () => {
    fc.assert(fc.property(fc.nat({ max: 2_000_000_000 }), (v) => {
      const rep = bucketValue(bucketOf(v))
      if (v < 64) expect(rep).toBe(v)
      else expect(Math.abs(rep - v) / v).toBeLessThanOrEqual(0.01)
    }), { numRuns: 5000 })
  })

  test('the median of merged daily histograms is within 1 % of the exact median (exact below 64)', () => {
    const day = fc.array(fc.oneof(fc.nat({ max: 63 }), fc.nat({ max: 100_000 })), { minLength: 1, maxLength: 288 })
    fc.assert(fc.property(fc.array(day, { minLength: 1, maxLength: 30 }), (days) => {
      const merged: Histogram = []
      for (const d of days) {
        const h: Histogram = []
        for (const v of d) addValue(h, v)
        mergeEncoded(merged, encodeHistogram(h))
      }
      const all = days.flat()
      const exact = exactMedian(Float64Array.from(all))!
      const approx = histogramMedian(merged)!
      const sorted = [...all].sort((a, b) => a - b)
      const mid = sorted.length >> 1
      if (sorted.length % 2 ? sorted[mid] < 64 : sorted[mid] < 64 && sorted[mid - 1] < 64) expect(approx).toBe(exact)
      else expect(Math.abs(approx - exact)).toBeLessThanOrEqual(0.01 * exact + 1e-9)
    }), { numRuns: 300 })
  })

  test('exact median: middle value, or the mean of the two middle values', () => {
    expect(exactMedian(Float64Array.from([5, 1, 3]))).toBe(3)
    expect(exactMedian(Float64Array.from([4, 1, 3, 10]))).toBe(3.5)
    expect(exactMedian(new Float64Array(0))).toBeNull()
    expect(histogramMedian([])).toBeNull()
  })
})
