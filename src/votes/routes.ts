import { Elysia } from 'elysia'
import type { Logger } from '../log.ts'
import { addressKey, clientAddress } from '../http/client-ip.ts'
import { ApiError, invalidParameter } from '../http/errors.ts'
import { publicRateLimit, type PublicLimitDeps } from '../http/public-limit.ts'
import { enforceRateLimit, type RateLimiter } from '../http/rate-limit.ts'
import { errorAnswer, errorResponse, iso } from '../http/schema.ts'
import { ipKey } from '../net/ip.ts'
import { htmlResponse, pageForError, pageView, renderPage, type PageView } from '../pages/layout.ts'
import { PageQuery, pseudoParam, type Query } from '../pages/query.ts'
import type { Server, ServersRepo, VoteTarget } from '../servers/repo.ts'
import { listedServer } from '../servers/service.ts'
import { issueAddressToken } from './address-token.ts'
import { castVote, checkVoteOrigin, siteOrigins, type CastDeps, type VoteForm } from './cast.ts'
import { AddressTokenBody, VoteBody, VoteCreated, VoteRefused } from './schema.ts'
import { voteTargets } from './targets.ts'
import { renderVotePage } from './vote-page.ts'

export type VoteRoutesDeps = CastDeps & PublicLimitDeps & {
  log: Logger
  store: { servers: ServersRepo }
  limits: { votes: RateLimiter }
}

// JSON for API clients (Accept: application/json, or a JSON body without an HTML Accept);
// HTML for the vote form.
function wantsJson(request: Request): boolean {
  const accept = request.headers.get('accept') ?? ''
  if (accept.includes('application/json')) return true
  return (request.headers.get('content-type') ?? '').includes('application/json') && !accept.includes('text/html')
}

// The vote form of a listed server, the vote it sends, and the dual-stack address tokens.
export function voteRoutes(rt: VoteRoutesDeps) {
  const formPage = async (view: PageView, target: Server, pseudo: string, error: ApiError) =>
    htmlResponse(view, renderVotePage(view, target, await rt.store.servers.imageHashes(target.num), { pseudo, error }), error.status, error.headers)
  const targets = voteTargets(rt.store.servers)

  return new Elysia({ name: 'votes.routes' })
    .use(publicRateLimit(rt))
    .get('/serveur/:slug/voter', ({ params, query, request }) => renderPage(rt, request, async (view) => {
      const target = await listedServer(rt.store.servers, params.slug)
      const q = query as Query
      // After a vote the form redirects here with ?vote=<id>: the page confirms it until the
      // next vote is possible; opened again later (a bookmark, a tab left open), it is the form,
      // the name filled in, rather than a wait that has already passed.
      const voted = typeof q.vote === 'string' ? await rt.store.votes.byId(target.id, q.vote) : null
      const waiting = voted && voted.createdAt + rt.config.votes.interval_minutes * 60_000 > rt.clock.now() ? voted : undefined
      return renderVotePage(view, target, await rt.store.servers.imageHashes(target.num), { pseudo: pseudoParam(q) || (voted?.pseudo ?? ''), voted: waiting })
    }), {
      query: PageQuery,
      detail: {
        summary: 'Vote page',
        description: 'HTML. The vote form of a listed server; `pseudo` pre-fills the player name. The captcha starts solving when the page opens. The form posts to POST /serveur/{slug}/voter; after a vote (`?vote=<id>`) the page is the thank-you with the next vote time (and a link to the form for anyone else) instead of the form, until that time; after it, the form again with the name of that vote filled in.',
        tags: ['Pages'],
      },
    })
    .get('/api/v1/vote-token', ({ request, server: bun, set }) => {
      const address = clientAddress(request, bun, rt.config.http.trust_proxy)
      if (!address || !ipKey(address)) throw invalidParameter('the address of this request is unknown')
      const token = issueAddressToken(rt.secret, address, rt.clock.now())
      // Read by the vote page from the site's own origin, cross-origin to this host.
      const origin = request.headers.get('origin')
      if (origin && siteOrigins(rt).includes(origin)) set.headers['access-control-allow-origin'] = origin
      set.headers.vary = 'Origin'
      set.headers['cache-control'] = 'no-store'
      return { ok: true as const, token: token.token, address: token.address, family: token.family, expiresAt: iso(token.expiresAt) }
    }, {
      publicLimited: true,
      response: { 200: AddressTokenBody, 400: errorAnswer('INVALID_PARAMETER: the address of the request is unknown.'), 429: errorAnswer('RATE_LIMITED: over limits.public_per_minute (120 a minute per client address by default); Retry-After says when to try again.') },
      detail: {
        summary: 'Dual-stack address token',
        description: 'A short-lived (10 min) token, HMAC-signed by the site, binding the address this request came from. The vote page fetches it from site.ipv4_url and site.ipv6_url and sends both tokens with the vote, so the vote records the player\'s IPv4 and IPv6 addresses. Readable cross-origin by the site\'s own pages only (CORS).',
        tags: ['Voting'],
      },
    })
    .post('/serveur/:slug/voter', async ({ request, server: bun, params, body, set }) => {
      const json = wantsJson(request)
      const form = (body ?? {}) as VoteForm
      const typed = typeof form.pseudo === 'string' ? form.pseudo.slice(0, 16) : ''
      let target: VoteTarget | null = null
      try {
        const found = await targets.find(params.slug)
        target = found.target
        checkVoteOrigin(request, rt)
        const address = clientAddress(request, bun, rt.config.http.trust_proxy)
        const limitHeaders = await enforceRateLimit(rt.limits.votes, addressKey(address), rt.clock.now())
        const { vote, nextVoteAt } = await castVote(rt, targets, found, form, address)
        if (json) {
          set.status = 201
          Object.assign(set.headers, limitHeaders)
          return {
            ok: true as const,
            vote: { id: vote.id, pseudo: vote.pseudo, createdAt: iso(vote.createdAt) },
            nextVoteAt: iso(nextVoteAt),
          }
        }
        // Redirect after POST: reloading the confirmation never sends the vote again.
        return new Response(null, { status: 303, headers: { ...limitHeaders, location: `/serveur/${target.slug}/voter?vote=${encodeURIComponent(vote.id)}` } })
      } catch (e) {
        if (json) throw e
        const view = pageView(rt.config, request)
        if (e instanceof ApiError && target && e.status !== 404) {
          // The form again, which shows more of the server than a vote reads.
          const page = await rt.store.servers.bySlug(target.slug)
          if (page) return formPage(view, page, typed, e)
        }
        return pageForError(view, rt.log, e)
      }
    }, {
      body: VoteBody,
      // The 201 body (VoteCreated) is not checked per request: the handler builds exactly that
      // shape (test/votes/vote-form.test.ts holds the exact body), and the check costs the public
      // write path.
      detail: {
        summary: 'Vote for a server',
        // The 201 answer is not a `response` schema (see above): the answers are written here.
        responses: {
          201: { description: 'With Accept: application/json: the vote, recorded', content: { 'application/json': { schema: VoteCreated } } },
          303: { description: 'As an HTML form: to the confirmation page (`Location`)' },
          400: errorResponse('INVALID_PARAMETER: the pseudo, the captcha or a dual-stack token'),
          403: errorResponse('FORBIDDEN: an Origin that is not the site\'s'),
          404: errorResponse('NOT_FOUND: unknown slug, or a server off the public site'),
          429: { description: 'VOTE_TOO_SOON (with `nextVoteAt`) or RATE_LIMITED (with Retry-After)', content: { 'application/json': { schema: VoteRefused } }, headers: { 'Retry-After': { description: 'Seconds to wait (RATE_LIMITED)', schema: { type: 'integer' } } } },
        },
        description: 'Records a vote (form field `pseudo`, plus `altcha` when the captcha is on). With `Accept: application/json`: 201 `{"ok":true,"vote":{"id","pseudo","createdAt"},"nextVoteAt"}`, or 400 INVALID_PARAMETER (pseudo, captcha, dual-stack token), 403 FORBIDDEN (an Origin that is not the site\'s), 404 NOT_FOUND, 429 VOTE_TOO_SOON with `nextVoteAt` (the pseudo or the address voted within votes.interval_minutes), 429 RATE_LIMITED (limits.vote_attempts_per_minute). As an HTML form: 303 to the confirmation page, or the form again with the error and the same status.',
        tags: ['Voting'],
      },
    })
}
