import { Elysia, t } from 'elysia'
import type { Runtime } from '../runtime.ts'
import { listedServer } from '../servers/service.ts'
import { htmlResponse, pageForError } from './layout.ts'
import { pseudoParam, type Query } from './query.ts'
import { renderRankingPage } from './ranking-page.ts'
import { renderServerPage } from './server-page.ts'
import { renderVotePage } from './vote-page.ts'

// The public, server-rendered pages. Query values are read by the page itself (src/pages/query.ts)
// so that a bad one gets a friendly HTML page rather than a JSON error.
const PageQuery = t.Record(t.String(), t.Union([t.String(), t.Array(t.String())]))

export function pageRoutes(rt: Runtime) {
  const render = (url: string, fn: () => string) => {
    try {
      return htmlResponse(rt.config, fn())
    } catch (e) {
      return pageForError(rt.config, rt.log, e, url)
    }
  }
  return new Elysia({ name: 'pages.routes' })
    .get('/', ({ query, request }) => render(request.url, () => renderRankingPage(rt, query as Query)), {
      query: PageQuery,
      detail: {
        summary: 'Ranking page',
        description: 'HTML. Listed servers ranked by their votes in a UTC month. Query: `month` (YYYY-MM, up to the current month; default the current one), `edition` (java|bedrock), `mode` (one of servers.modes), `search` (part of the name, at most 64 characters), `page` (from 1; 50 servers a page). A bad value answers a 400 HTML page naming it.',
        tags: ['Pages'],
      },
    })
    .get('/serveur/:slug', ({ params, query, request }) => render(request.url, () => renderServerPage(rt, listedServer(rt.servers, params.slug), query as Query)), {
      query: PageQuery,
      detail: {
        summary: 'Server page',
        description: 'HTML. A listed server: address to copy, edition, version, modes, description, website, rank and votes in the month (`month`=YYYY-MM, default the current one), top voters, online state. Unknown or hidden server: a 404 HTML page.',
        tags: ['Pages'],
      },
    })
    .get('/serveur/:slug/voter', ({ params, query, request }) => render(request.url, () => {
      const target = listedServer(rt.servers, params.slug)
      const q = query as Query
      // After a vote the form redirects here with ?vote=<id>: the page confirms it.
      const voted = typeof q.vote === 'string' ? rt.pages.voteOf(target.id, q.vote) : null
      return renderVotePage(rt.config, target, { pseudo: pseudoParam(q) || (voted?.pseudo ?? ''), voted: voted ?? undefined })
    }), {
      query: PageQuery,
      detail: {
        summary: 'Vote page',
        description: 'HTML. The vote form of a listed server; `pseudo` pre-fills the player name. The form posts to POST /serveur/{slug}/voter.',
        tags: ['Pages'],
      },
    })
}
