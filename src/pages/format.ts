// Dates and numbers are written by the visitor's translator (web/assets/translate.js, through
// src/i18n/translate.ts): one set of Intl formats for every page, the dashboard and the charts.

// The month before / after a 'YYYY-MM' month.
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1 + by, 1)).toISOString().slice(0, 7)
}
