import { Elysia, t } from 'elysia'
import { addressKey, clientAddress } from '../http/client-ip.ts'
import { ApiError, invalidParameter } from '../http/errors.ts'
import { publicRateLimit } from '../http/public-limit.ts'
import { Iso, iso } from '../http/schema.ts'
import { enforceRateLimit } from '../http/rate-limit.ts'
import { ipKey } from '../net/ip.ts'
import { htmlResponse, pageForError } from '../pages/layout.ts'
import { renderVotePage } from '../pages/vote-page.ts'
import type { Runtime } from '../runtime.ts'
import type { Server, VoteTarget } from '../servers/repo.ts'
import { listedVoteTarget } from '../servers/service.ts'
import { issueAddressToken } from './address-token.ts'
import { castVote, checkVoteOrigin, siteOrigins, type VoteForm } from './cast.ts'
import { createGroupCommit } from '../db/group-commit.ts'

const VoteBody = t.Object({
  pseudo: t.Optional(t.String({ description: 'The player name: 3–16 of A–Z, a–z, 0–9, _ (Bedrock servers also allow inner spaces and one leading "." or "*").', examples: ['Steve'] })),
  altcha: t.Optional(t.String({ description: 'The captcha widget\'s answer (base64), required when votes.captcha = "pow".' })),
  ipv4Token: t.Optional(t.String({ description: 'Dual-stack token from GET {site.ipv4_url}/api/v1/vote-token.' })),
  ipv6Token: t.Optional(t.String({ description: 'Dual-stack token from GET {site.ipv6_url}/api/v1/vote-token.' })),
}, { additionalProperties: true })

const VoteCreated = t.Object({
  ok: t.Literal(true),
  vote: t.Object({ id: t.String(), pseudo: t.String(), createdAt: Iso }),
  nextVoteAt: Iso,
})

const AddressTokenBody = t.Object({
  ok: t.Literal(true),
  token: t.String(),
  address: t.String(),
  family: t.Union([t.Literal(4), t.Literal(6)]),
  expiresAt: Iso,
})

// JSON for API clients (Accept: application/json, or a JSON body without an HTML Accept);
// HTML for the vote form.
function wantsJson(request: Request): boolean {
  const accept = request.headers.get('accept') ?? ''
  if (accept.includes('application/json')) return true
  return (request.headers.get('content-type') ?? '').includes('application/json') && !accept.includes('text/html')
}

export function voteRoutes(rt: Runtime) {
  const commit = createGroupCommit(rt.db)
  const formPage = (target: Server, pseudo: string, error: ApiError) =>
    htmlResponse(rt.config, renderVotePage(rt.config, target, { pseudo, error }), error.status, error.headers)

  return new Elysia({ name: 'votes.routes' })
    .use(publicRateLimit(rt))
    .get('/api/v1/vote-token', ({ request, server: bun, set }) => {
      const address = clientAddress(request, bun, rt.config.http.trust_proxy)
      if (!address || !ipKey(address)) throw invalidParameter('the address of this request is unknown')
      const token = issueAddressToken(rt.secret, address, rt.clock.now())
      // Read by the vote page from the site's own origin, cross-origin to this host.
      const origin = request.headers.get('origin')
      if (origin && siteOrigins(rt.config).includes(origin)) set.headers['access-control-allow-origin'] = origin
      set.headers.vary = 'Origin'
      set.headers['cache-control'] = 'no-store'
      return { ok: true as const, token: token.token, address: token.address, family: token.family, expiresAt: iso(token.expiresAt) }
    }, {
      publicLimited: true,
      response: AddressTokenBody,
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
        target = listedVoteTarget(rt.servers, params.slug)
        checkVoteOrigin(request, rt.config)
        const address = clientAddress(request, bun, rt.config.http.trust_proxy)
        const limitHeaders = enforceRateLimit(rt.limits.votes, addressKey(address), rt.clock.now())
        const { vote, nextVoteAt } = await castVote(rt, commit, target, form, address)
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
        if (e instanceof ApiError && target && e.status !== 404) {
          // The form again, which shows more of the server than a vote reads.
          const page = rt.servers.bySlug(target.slug)
          if (page) return formPage(page, typed, e)
        }
        return pageForError(rt.config, rt.log, e, request.url)
      }
    }, {
      body: VoteBody,
      response: { 201: VoteCreated },
      detail: {
        summary: 'Vote for a server',
        description: 'Records a vote (form field `pseudo`, plus `altcha` when the captcha is on). With `Accept: application/json`: 201 `{"ok":true,"vote":{"id","pseudo","createdAt"},"nextVoteAt"}`, or 400 INVALID_PARAMETER (pseudo, captcha, dual-stack token), 403 FORBIDDEN (an Origin that is not the site\'s), 404 NOT_FOUND, 429 VOTE_TOO_SOON with `nextVoteAt` (the pseudo or the address voted within votes.interval_minutes), 429 RATE_LIMITED (limits.vote_attempts_per_minute). As an HTML form: 303 to the confirmation page, or the form again with the error and the same status.',
        tags: ['Voting'],
      },
    })
}
