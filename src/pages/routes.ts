import { Elysia } from 'elysia'
import type { Logger } from '../log.ts'
import { listedServer } from '../servers/service.ts'
import { renderPage } from './layout.ts'
import { createPageCaches } from './page-cache.ts'
import { PageQuery, type Query } from './query.ts'
import { renderRankingPage, type RankingPageDeps } from './ranking-page.ts'
import { renderServerPage } from './server-page.ts'

// The public, server-rendered pages: the ranking and a server's page (its vote form is the
// votes' own). Query values are read by the page itself (src/pages/query.ts) so that a bad one
// gets a friendly HTML page rather than a JSON error. A ranking page is served again for a few
// seconds, and a server's page takes its rank from the month's ranking kept as long
// (src/pages/page-cache.ts); the rest of a server's page is read at each request.
export function pageRoutes(rt: RankingPageDeps & { log: Logger }) {
  const caches = createPageCaches(rt)
  const serverPageDeps = { ...rt, rankOf: caches.rankOf }
  return new Elysia({ name: 'pages.routes' })
    .get('/', ({ query, request }) => renderPage(rt, request, (view) => caches.page(view, () => renderRankingPage(rt, view, query as Query))), {
      query: PageQuery,
      detail: {
        summary: 'Ranking page',
        description: 'HTML. Listed servers ranked by their votes in a UTC month, each with its icon, the first line of its MOTD, its banner, its address with a copy button, edition, version, modes, players, votes and a Vote button. Query: `month` (YYYY-MM, up to the current month; default the current one), `edition` (java|bedrock), `mode` (one of servers.modes), `search` (part of the name, at most 64 characters), `page` (from 1; 50 servers a page). A bad value answers a 400 HTML page naming it.',
        tags: ['Pages'],
      },
    })
    .get('/serveur/:slug', ({ params, query, request }) => renderPage(rt, request, async (view) => renderServerPage(serverPageDeps, view, await listedServer(rt.store.servers, params.slug), query as Query)), {
      query: PageQuery,
      detail: {
        summary: 'Server page',
        description: 'HTML. A listed server: icon, banner, both lines of the MOTD, address to copy, edition, version, modes, description, website, rank and votes in the month (`month`=YYYY-MM, default the current one), top voters, online state. Unknown or hidden server: a 404 HTML page.',
        tags: ['Pages'],
      },
    })
}
