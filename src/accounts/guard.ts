import { Elysia } from 'elysia'
import { refusal, unauthenticated } from '../http/errors.ts'
import { conflictingParameter, givenTwice } from '../http/query-params.ts'
import type { SiteUrl } from '../http/site-url.ts'
import { sessionCookieName, userOfSession, type SessionDeps } from './session.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

// CSRF: a state-changing request that carries an Origin header must come from the site itself.
// (Browsers send Origin on every cross-site POST/PUT/PATCH/DELETE; SameSite=Lax cookies are the
// second line.)
export function checkOrigin(request: Request, siteUrl: SiteUrl): void {
  if (SAFE_METHODS.has(request.method)) return
  const origin = request.headers.get('origin')
  if (origin !== null && !siteUrl.origins().includes(origin)) throw refusal('CROSS_SITE', siteUrl.refusal(origin))
}

// The session first (401 before anything else), then the query: a parameter given several times
// with different values is refused naming it, as on the public and keyed APIs, rather than its
// last value taken silently (deliveries?status=failed&status=succeeded listed the succeeded).
function checkQuery(request: Request): void {
  const conflicting = conflictingParameter(request.url)
  if (conflicting !== null) throw givenTwice(conflicting)
}

// Macros for owner routes:
//   sameOrigin: true  — the Origin rule only (login, registration)
//   owner: true       — the Origin rule and a live session; resolves { user }
//   admin: true       — as owner, and the user must be an admin
// The API reference lists the session cookie as the security of the last two
// (SessionCookie, src/pages/api-docs.ts).
export const ownerAuth = (deps: SessionDeps) =>
  new Elysia({ name: 'accounts.owner-auth' }).macro({
    sameOrigin: {
      beforeHandle({ request }) {
        checkOrigin(request, deps.siteUrl)
      },
    },
    owner: {
      detail: { security: [{ SessionCookie: [] }] },
      async resolve({ request, cookie }) {
        checkOrigin(request, deps.siteUrl)
        const user = await userOfSession(deps, cookie[sessionCookieName(deps.siteUrl)]?.value as string | undefined)
        if (!user) throw unauthenticated()
        checkQuery(request)
        return { user }
      },
    },
    admin: {
      detail: { security: [{ SessionCookie: [] }] },
      async resolve({ request, cookie }) {
        checkOrigin(request, deps.siteUrl)
        const user = await userOfSession(deps, cookie[sessionCookieName(deps.siteUrl)]?.value as string | undefined)
        if (!user) throw unauthenticated()
        if (!user.isAdmin) throw refusal('ADMINS_ONLY', 'administrators only')
        checkQuery(request)
        return { user }
      },
    },
  })
