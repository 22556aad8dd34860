import { createUser } from '../../src/accounts/service.ts'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import type { Site } from '../../src/site.ts'
import { call } from '../helpers.ts'

type App = { handle(request: Request): Promise<Response> }

// An account with a live session, made without going through the routes (fast, and the routes
// that make sessions have tests of their own). Returns the Cookie header to send.
export async function ownerSession(rt: Site, email: string, admin = false) {
  const user = await createUser(rt, { email, password: 'correct horse battery', admin })
  const { token } = await startSession(rt, user.id)
  return { user, headers: { cookie: `${sessionCookieName(rt.siteUrl)}=${token}` } }
}

// The `name=value` pair of the Set-Cookie header, ready to send back.
export function cookieOf(r: Response): string {
  const set = r.headers.get('set-cookie')
  if (!set) throw new Error('no Set-Cookie header')
  return set.split(';')[0]
}

export const json = async (r: Response) => ({ status: r.status, body: await r.json() })

// A request as the owner; the body shape of every error is checked by the caller.
export const as = (app: App, headers: Record<string, string>) =>
  (method: string, path: string, body?: unknown) => call(app, method, path, { headers, body })
