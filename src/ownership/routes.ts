import { Elysia } from 'elysia'
import { ownerAuth } from '../accounts/guard.ts'
import type { SessionDeps } from '../accounts/session.ts'
import { enforceRateLimit, type RateLimiter } from '../http/rate-limit.ts'
import { ServerErrors } from '../accounts/schema.ts'
import { errorAnswer, isoOrNull } from '../http/schema.ts'
import type { Server } from '../servers/repo.ts'
import { SlugParams } from '../servers/schema.ts'
import { ownedServer } from '../servers/service.ts'
import { serverAddress } from '../servers/view.ts'
import { VerificationAnswer, VerificationRefused } from './schema.ts'
import { ownershipInstructions, ownershipToken, verifyOwnership, type OwnershipDeps } from './service.ts'

export type OwnershipRoutesDeps = OwnershipDeps & SessionDeps & {
  limits: { verifications: RateLimiter }
}

const tags = ['Owner: servers']

// Proven ownership of a server: its token and instructions, and "verify now".
export function ownershipRoutes(rt: OwnershipRoutesDeps) {
  const answer = (s: Server, token: string, verifiedAt: number | null, motd?: string): VerificationAnswer => ({
    ok: true as const, token, verified: verifiedAt !== null, verifiedAt: isoOrNull(verifiedAt), address: serverAddress(s),
    instructions: ownershipInstructions(s, token), ...(motd !== undefined && { motd }),
  })
  return new Elysia({ name: 'ownership.routes' })
    .use(ownerAuth(rt))
    .get('/api/v1/me/servers/:slug/verification', async ({ user, params }) => {
      const s = await ownedServer(rt.store.servers, user, params.slug)
      return answer(s, await ownershipToken(rt, s), s.verifiedAt)
    }, {
      owner: true, params: SlugParams,
      response: { 200: VerificationAnswer, ...ServerErrors() },
      detail: {
        summary: 'Proving that I run the server: the token', tags,
        description: 'The listing\'s token (made at the first request; it never expires and does not change) and where to put it: anywhere in the server\'s MOTD (Java: `motd=` in server.properties, or the proxy\'s MOTD; Bedrock: `server-name=` in server.properties, or Geyser\'s `motd1`/`motd2`). Then POST on the same path. `verified` and `verifiedAt` tell the current state.',
      },
    })
    .post('/api/v1/me/servers/:slug/verification', async ({ user, params, set }) => {
      const s = await ownedServer(rt.store.servers, user, params.slug)
      // Each check pings the owner's address: limits.verifications_per_minute per server.
      Object.assign(set.headers, await enforceRateLimit(rt.limits.verifications, s.id, rt.clock.now()))
      const proved = await verifyOwnership(rt, s)
      return answer(s, proved.token, proved.verifiedAt, proved.motd)
    }, {
      owner: true, params: SlugParams,
      // The 409 is thrown and written by the error handler: listed here for the reference.
      response: { 200: VerificationAnswer, 409: VerificationRefused, ...ServerErrors(), 429: errorAnswer('RATE_LIMITED: over limits.verifications_per_minute for this server; Retry-After says when to try again.') },
      detail: {
        summary: 'Proving that I run the server: verify now', tags,
        description: 'Pings the server at once (the ping round\'s pinger: Java status ping with the legacy fallback, or the Bedrock RakNet ping; the same private-address rule, `network.allow_private_targets`) and looks for the token in the MOTD, as plain text, in any letter case. '
          + 'Found: 200 with `verified: true`, `verifiedAt` (now) and the `motd` read; another account\'s listing of the same address (host compared in lower case without a final dot, and the port or the edition\'s default; a name and its IP address are different addresses) loses its verification, since the latest proof wins. '
          + 'Not found, or no answer: 409 CONFLICT whose message quotes the MOTD read (or the ping\'s error), with the top-level field `motd` (null when the ping failed); nothing changes, so a verified listing whose token was removed stays verified. '
          + 'The token may be removed once verified; changing the host, port or edition resets the verification. At most `limits.verifications_per_minute` (default 10) a minute per server, with the RateLimit headers; past it 429 `RATE_LIMITED`.',
      },
    })
}
