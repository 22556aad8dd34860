// How times and numbers read on the public pages. Every time is UTC (the site's months are UTC
// months), written out so that a reader never has to guess the zone.

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

// "22 November 2026, 14:05 UTC"
export function formatUtc(ms: number): string {
  const d = new Date(ms)
  const hh = String(d.getUTCHours()).padStart(2, '0')
  const mm = String(d.getUTCMinutes()).padStart(2, '0')
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hh}:${mm} UTC`
}

// "2026-11" → "November 2026"
export function formatMonth(month: string): string {
  const [y, m] = month.split('-').map(Number)
  return `${MONTHS[m - 1]} ${y}`
}

// The month before / after a 'YYYY-MM' month.
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1 + by, 1)).toISOString().slice(0, 7)
}

// 12345 → "12,345". One formatter for every call: toLocaleString builds one each time, which
// the ranking page (a few counts per row) paid for on every request.
const COUNT = new Intl.NumberFormat('en-US')
export const formatCount = (n: number) => COUNT.format(n)
