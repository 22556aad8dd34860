import { invalidParameter } from './errors.ts'

// `limit` and `before` of a list paged newest first by an increasing integer id: `before` is the
// `next` value of the previous page (exclusive), absent for the first page.
export function pageParams(query: { limit?: string; before?: string }, defaultLimit = 50, maxLimit = 200) {
  const limit = query.limit === undefined ? defaultLimit : Number(query.limit)
  if (!/^\d+$/.test(query.limit ?? String(defaultLimit)) || limit < 1 || limit > maxLimit) {
    throw invalidParameter(`limit must be an integer from 1 to ${maxLimit}`, 'limit')
  }
  if (query.before !== undefined && !/^[1-9]\d{0,15}$/.test(query.before)) throw invalidParameter('before must be the "next" value of a previous page', 'before')
  return { limit, before: query.before === undefined ? Number.MAX_SAFE_INTEGER : Number(query.before) }
}
