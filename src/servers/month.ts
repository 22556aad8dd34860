// The ranking's periods: UTC months, written 'YYYY-MM'.

// The month a vote made at `ms` counts for.
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7)
export const monthStart = (month: string) => Date.parse(`${month}-01T00:00:00.000Z`)
export function monthEnd(month: string): number {
  const d = new Date(monthStart(month))
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
}
export const isMonth = (s: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(s)
