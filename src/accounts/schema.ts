import { t } from 'elysia'
import { errorAnswer, Iso, iso } from '../http/schema.ts'
import type { User } from './repo.ts'

// Bodies and answers of the account routes. The service re-checks e-mail and password rules
// (the command line shares them); these bounds keep absurd inputs from reaching a hash.
export const Credentials = t.Object({
  email: t.String({ maxLength: 254, error: 'email is required: an e-mail address of at most 254 characters', examples: ['owner@example.com'] }),
  password: t.String({ maxLength: 256, error: 'password is required: a string of at most 256 characters', examples: ['correct horse battery staple'] }),
})

export const UserJson = t.Object({ id: t.String(), email: t.String(), isAdmin: t.Boolean(), createdAt: Iso })
export const userJson = (u: User) => ({ id: u.id, email: u.email, isAdmin: u.isAdmin, createdAt: iso(u.createdAt) })

export const UserAnswer = t.Object({ ok: t.Literal(true), user: UserJson })
export const Ok = t.Object({ ok: t.Literal(true) })
export const AuthStatus = t.Object({ ok: t.Literal(true), setupNeeded: t.Boolean(), registrationOpen: t.Boolean() })
export const ResetBody = t.Object({
  token: t.String({ maxLength: 128, error: 'token is required: the token of a reset link' }),
  password: t.String({ maxLength: 256, error: 'password is required: a string of at most 256 characters' }),
})

// The errors of every route with `admin: true` (src/accounts/guard.ts), for its `response` map:
// the OpenAPI document lists them.
export const AdminErrors = {
  401: errorAnswer('UNAUTHENTICATED: no valid session.'),
  403: errorAnswer('FORBIDDEN: the account is not an administrator ("administrators only"), or a change came from another site (its Origin is not this site\'s).'),
}

// The errors of every route with `owner: true`, for its `response` map (the OpenAPI document
// lists them); `ServerErrors` for a route on one of the account's servers, `Invalid` where it takes
// parameters or a body.
export const SessionErrors = {
  401: errorAnswer('UNAUTHENTICATED: no valid session.'),
  403: errorAnswer('FORBIDDEN: a change came from another site (reason CROSS_SITE: its Origin is not this site\'s).'),
}
export const ServerErrors = (notFound = 'no server with this slug') => ({
  ...SessionErrors,
  403: errorAnswer('FORBIDDEN: another account\'s server (reason NOT_YOURS), or a change from another site (CROSS_SITE).'),
  404: errorAnswer(`NOT_FOUND: ${notFound}.`),
})
export const Invalid = (what = 'a field missing, malformed, out of range or unknown, or a body that is not a JSON object or a form') =>
  ({ 400: errorAnswer(`INVALID_PARAMETER: ${what}; the message names the field, and \`field\` says which.`) })
