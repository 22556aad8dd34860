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

// 12345 → "12,345". Counts are integers, grouped here by hand: the locale formatter (even one
// kept and reused) was a tenth of the ranking page's render time, at a few counts per row.
const THOUSANDS = /\B(?=(\d{3})+$)/g
export const formatCount = (n: number) =>
  Number.isSafeInteger(n) ? (n < 1000 && n > -1000 ? String(n) : String(n).replace(THOUSANDS, ',')) : n.toLocaleString('en-US')
