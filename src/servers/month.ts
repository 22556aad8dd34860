// The ranking's periods: UTC months, written 'YYYY-MM'.

// The month a vote made at `ms` counts for.
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7)
export const monthStart = (month: string) => Date.parse(`${month}-01T00:00:00.000Z`)
export const monthEnd = (month: string) => monthStart(shiftMonth(month, 1))
// The month `by` months after (before, when negative) a 'YYYY-MM' month, counted in the text:
// Date.UTC reads the years 0 to 99 as 1900 to 1999 (month=0050-01 ended in 1950).
export function shiftMonth(month: string, by: number): string {
  const n = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + by
  return `${String(Math.floor(n / 12)).padStart(4, '0')}-${String((n % 12 + 12) % 12 + 1).padStart(2, '0')}`
}
// The first month written YYYY-MM: none comes before it.
export const FIRST_MONTH = '0000-01'
export const isMonth = (s: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(s)
