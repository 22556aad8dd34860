import { t } from 'elysia'
import type { Config } from '../config/load.ts'
import { invalidParameter, notOneOf } from '../http/errors.ts'
import { isMonth, monthOf } from '../servers/month.ts'
import type { Edition } from '../servers/schema.ts'

// Query parameters of the public pages. A bad value is a 400 with a message naming it, which the
// page routes show as a friendly page (never a stack, never a JSON body to a browser).

// Every public page takes any query: the page reads it, so that a bad value gets a page, not JSON.
export const PageQuery = t.Record(t.String(), t.Union([t.String(), t.Array(t.String())]))
export type Query = Record<string, string | string[] | undefined>

// One value of a parameter: "" when absent; a parameter given twice is a mistake worth saying.
function one(query: Query, name: string): string {
  const v = query[name]
  if (Array.isArray(v)) throw invalidParameter(`${name} must be given once`, name)
  return (v ?? '').trim()
}

// The UTC month to show: the current one by default, any earlier one on request.
export function monthParam(query: Query, now: number): string {
  const current = monthOf(now)
  const v = one(query, 'month')
  if (v === '') return current
  if (!isMonth(v) || v > current) throw invalidParameter(`month must be a month written YYYY-MM, up to the current month (${current})`, 'month')
  return v
}

export function editionParam(query: Query): Edition | undefined {
  const v = one(query, 'edition')
  if (v === '') return undefined
  if (v !== 'java' && v !== 'bedrock') throw invalidParameter('edition must be "java" or "bedrock"', 'edition')
  return v
}

export function modeParam(query: Query, config: Config): string | undefined {
  const v = one(query, 'mode')
  if (v === '') return undefined
  if (!config.servers.modes.includes(v)) throw notOneOf('mode', config.servers.modes)
  return v
}

export const SEARCH_MAX = 64

export function searchParam(query: Query): string | undefined {
  const v = one(query, 'search')
  if (v.length > SEARCH_MAX) throw invalidParameter(`search must be at most ${SEARCH_MAX} characters long`, 'search')
  return v || undefined
}

const PAGE_MAX = 999_999

export function pageParam(query: Query): number {
  const v = one(query, 'page')
  if (v === '') return 1
  if (!/^[1-9]\d*$/.test(v) || Number(v) > PAGE_MAX) throw invalidParameter(`page must be a whole number from 1 to ${PAGE_MAX}`, 'page')
  return Number(v)
}

// The pseudo to pre-fill on the vote page: shown as given (escaped), at most 16 characters
// like any valid name, so an absurd link cannot blow up the form.
export const pseudoParam = (query: Query) => one(query, 'pseudo').slice(0, 16)
