import { t } from 'elysia'

// Every time in the API is UTC, ISO 8601 with milliseconds (Date#toISOString); stored as ms.
export const Iso = t.String({ description: 'UTC time, ISO 8601 with milliseconds', examples: ['2026-11-22T10:15:30.123Z'] })
export const iso = (ms: number) => new Date(ms).toISOString()
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms))
