import { Elysia } from 'elysia'
import { invalidParameter } from '../http/errors.ts'
import { errorAnswer, errorResponse } from '../http/schema.ts'
import { publicRateLimit, type PublicLimitDeps } from '../http/public-limit.ts'
import { monthOf } from '../servers/month.ts'
import { SlugParams } from '../servers/schema.ts'
import { listedServer } from '../servers/service.ts'
import { renderBadge } from './badge.ts'
import { translatorFor } from '../i18n/translate.ts'
import { globalHistory, historyCsv, scopeOf, serverHistory, type History } from './history.ts'
import { publicRecord, type PublicRecordDeps } from './public-record.ts'
import { BadgeQuery, GlobalQuery, HistoryQuery, HistoryResponse, PublicServerResponse, type Range } from './schema.ts'

const tags = ['Public statistics']
const PUBLIC_NOT_FOUND = 'NOT_FOUND: unknown slug, or a server off the public site (`field`: "slug").'
const PUBLIC_LIMITED = 'RATE_LIMITED: over limits.public_per_minute (120 a minute per client address by default); Retry-After says when to try again.'
// The errors of a public route on one server, for its `response` map.
const PublicErrors = {
  400: errorAnswer('INVALID_PARAMETER: a parameter not one of its values, or given several times with different values; the message names it.'),
  404: errorAnswer(PUBLIC_NOT_FOUND),
  429: errorAnswer(PUBLIC_LIMITED),
}

// The public (unkeyed) statistics API: 120 requests a minute per client address.
export function statsRoutes(rt: PublicRecordDeps & PublicLimitDeps) {
  const historyOf = async (slug: string, range: Range) => {
    const server = await listedServer(rt.store.servers, slug)
    return { server, history: await serverHistory(rt.store.stats, server.num, range, rt.clock.now()) }
  }
  const historyDownload = async (slug: string, range: Range): Promise<Response> => {
    const { server, history } = await historyOf(slug, range)
    return new Response(historyCsv(history), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${server.slug}-${history.range}.csv"`,
      },
    })
  }
  const historyJson = async (slug: string, range: Range): Promise<History> => (await historyOf(slug, range)).history
  // The JSON history, or with format=csv the download: two promises, so that each keeps its type.
  const historyAnswer = (slug: string, range: Range, format?: 'json' | 'csv') =>
    format === 'csv' ? historyDownload(slug, range) : historyJson(slug, range)
  return new Elysia({ name: 'stats.public' })
    .use(publicRateLimit(rt))
    .get('/api/v1/servers/:slug', async ({ params }) => ({
      ok: true as const,
      server: await publicRecord(rt, await listedServer(rt.store.servers, params.slug), rt.clock.now()),
    }), {
      params: SlugParams,
      response: { 200: PublicServerResponse, ...PublicErrors },
      publicLimited: true,
      detail: {
        summary: 'Public server record', tags,
        description: 'A listed server: its listing, live rank and votes, and the last ping (online, players, MOTD as plain text, latency, 24 h uptime), with the addresses of its vote page, badge, icon and banner. `verified`: the owner proved they run it. Unknown slug, or a server off the public site (hidden by an administrator, its owner\'s account disabled, unverified while `listing.require_verification` is on, or an unverified listing of an address another account proved it runs): 404 NOT_FOUND.',
      },
    })
    .get('/api/v1/servers/:slug/history', ({ params, query }) => historyAnswer(params.slug, query.range ?? '24h', query.format), {
      params: SlugParams,
      query: HistoryQuery,
      response: { 200: HistoryResponse, ...PublicErrors },
      publicLimited: true,
      detail: {
        summary: 'Player-count history of a server', tags,
        // The CSV form, beside the JSON of the response schema (src/pages/api-docs-repair.ts).
        responses: {
          200: {
            description: 'The history; with format=csv, as CSV',
            headers: { 'Content-Disposition': { description: 'format=csv: attachment; filename="<slug>-<range>.csv"', schema: { type: 'string' } } },
            content: { 'text/csv': { schema: { type: 'string' }, example: 't,avg,max\n2026-11-22T10:00:00.000Z,12.5,14\n' } },
          },
        },
        description: 'Slices aligned to UTC multiples of the step, t = slice start, slices without a measurement left out. A failed ping counts as 0 players and as down. '
          + 'format=csv answers text/csv with the header t,avg,max and one line per point, as the attachment "<slug>-<range>.csv".',
      },
    })
    .get('/api/v1/servers/:slug/badge.svg', async ({ params, query }) => {
      const server = await listedServer(rt.store.servers, params.slug)
      const rank = (await rt.store.ranking.rankOf(server.id, monthOf(rt.clock.now())))?.rank ?? null
      // The language the owner's page asks for, else the site's: an embedded image is one answer
      // for every reader, so that a cache keeps it whatever the reader's browser asks.
      const tr = translatorFor(query.lang ?? rt.config.site.language)
      const svg = renderBadge({ tr, name: server.name, rank, theme: query.theme ?? 'light', siteName: rt.config.site.name })
      return new Response(svg, { headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'public, max-age=60' } })
    }, {
      params: SlugParams,
      query: BadgeQuery,
      publicLimited: true,
      detail: {
        summary: '"Vote for us" badge', tags, operationId: 'getApiV1ServersBySlugBadge',
        // An SVG answer, which no `t` schema describes: the answers are written here.
        responses: {
          200: {
            description: 'The badge',
            headers: { 'Cache-Control': { description: 'public, max-age=60', schema: { type: 'string' } } },
            content: { 'image/svg+xml': { schema: { type: 'string' } } },
          },
          400: errorResponse('INVALID_PARAMETER: theme or lang not one of its values, or a parameter given several times with different values'),
          404: errorResponse(PUBLIC_NOT_FOUND),
          429: { ...errorResponse(PUBLIC_LIMITED), headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } },
        },
        description: 'An SVG badge with the server\'s name, "Vote for us" and its live rank this month; theme=light (default) or dark; lang=en|fr (default site.language; it does not follow the reader\'s browser, so shared caches keep one badge). Cached for 60 s. '
          + 'Embed: <a href="{voteUrl}"><img src="{badgeUrl}" alt="Vote for {name}"></a>.',
      },
    })
    .get('/api/v1/stats/global', ({ query }) => {
      const modes = rt.config.servers.modes
      if (query.mode !== undefined && !modes.includes(query.mode)) throw invalidParameter(`mode must be one of ${modes.join(', ')}`, 'mode')
      return globalHistory(rt.store.stats, scopeOf(query), query.range ?? '24h', rt.clock.now())
    }, {
      query: GlobalQuery,
      response: { 200: HistoryResponse, 400: PublicErrors[400], 429: PublicErrors[429] },
      publicLimited: true,
      detail: {
        summary: 'Players on all listed servers', tags,
        description: 'Per ping round the players of all matching servers are summed; slices and summary are over those sums, uptime and points count server measurements. '
          + 'Filters: edition (java, bedrock) and mode (the site\'s configured game modes); anything else is 400 INVALID_PARAMETER naming the allowed values.',
      },
    })
}
