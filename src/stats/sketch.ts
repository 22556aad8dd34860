// The distribution of the values a daily rollup summarises, kept so that the median of a range
// served from rollups needs no raw samples. Values below EXACT are counted one by one (exact);
// larger values fall into buckets growing by GAMMA, whose representative 2·lo·hi/(lo+hi) is within
// (GAMMA−1)/(GAMMA+1) = 0.99 % of every value in the bucket (the DDSketch bound). A day of one
// server rarely spans more than a few dozen buckets, so a histogram is tens of bytes.

const EXACT = 64
const GAMMA = 1.02
const LOG_GAMMA = Math.log(GAMMA)

// Dense counts indexed by bucket; holes are undefined.
export type Histogram = number[]

export function bucketOf(value: number): number {
  const v = Math.max(0, Math.round(value))
  return v < EXACT ? v : EXACT + Math.floor(Math.log(v / EXACT) / LOG_GAMMA)
}

export function bucketValue(bucket: number): number {
  if (bucket < EXACT) return bucket
  const lo = EXACT * GAMMA ** (bucket - EXACT)
  const hi = lo * GAMMA
  return (2 * lo * hi) / (lo + hi)
}

export function addValue(h: Histogram, value: number, count = 1) {
  const b = bucketOf(value)
  h[b] = (h[b] ?? 0) + count
}

// Bytes: pairs of unsigned LEB128 varints (bucket minus the previous bucket, count), ascending.
export function encodeHistogram(h: Histogram): Uint8Array {
  const out: number[] = []
  const put = (n: number) => {
    while (n >= 0x80) {
      out.push((n % 0x80) | 0x80)
      n = Math.floor(n / 0x80)
    }
    out.push(n)
  }
  let prev = 0
  h.forEach((count, bucket) => {
    if (!count) return
    put(bucket - prev)
    put(count)
    prev = bucket
  })
  return Uint8Array.from(out)
}

// Adds the encoded histogram's counts into `into` (decoding and merging are one step, so reading a
// year of daily rows allocates nothing per row).
export function mergeEncoded(into: Histogram, bytes: Uint8Array) {
  let i = 0
  let bucket = 0
  const get = () => {
    let n = 0
    let scale = 1
    for (;;) {
      if (i >= bytes.length) throw new Error('truncated histogram')
      const b = bytes[i++]
      n += (b & 0x7f) * scale
      if (b < 0x80) return n
      scale *= 0x80
    }
  }
  while (i < bytes.length) {
    bucket += get()
    const count = get()
    into[bucket] = (into[bucket] ?? 0) + count
  }
}

// Median as for a sorted list: the middle value, or the mean of the two middle values.
export function histogramMedian(h: Histogram): number | null {
  let n = 0
  h.forEach((c) => { n += c })
  if (!n) return null
  const lowRank = Math.ceil(n / 2)
  const highRank = Math.floor(n / 2) + 1
  let low: number | null = null
  let seen = 0
  for (let b = 0; b < h.length; b++) {
    const c = h[b]
    if (!c) continue
    seen += c
    if (low === null && seen >= lowRank) low = bucketValue(b)
    if (seen >= highRank) return ((low ?? bucketValue(b)) + bucketValue(b)) / 2
  }
  return low
}

// Exact median of raw values (sorted in place).
export function exactMedian(values: Float64Array): number | null {
  if (!values.length) return null
  values.sort()
  const mid = values.length >> 1
  return values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2
}
