import { Elysia } from 'elysia'
import { ownerAuth } from '../accounts/guard.ts'
import { issueResetToken, type ResetDeps } from '../accounts/password-reset.ts'
import { AdminErrors, Ok, userJson } from '../accounts/schema.ts'
import type { SessionDeps } from '../accounts/session.ts'
import { errorAnswer, iso } from '../http/schema.ts'
import { refuseUnknownFields } from '../http/strict-body.ts'
import type { Scheduler } from '../jobs/scheduler.ts'
import { AdminUserAnswer, AdminUserList, ResetLinkAnswer, UnknownUser, UserIdParams, UserPatchBody } from './schema.ts'
import { changeUser, deleteUser, type AdminUser, type AdminUsersDeps } from './users.ts'

export type AdminUserRoutesDeps = AdminUsersDeps & ResetDeps & SessionDeps & { scheduler: Pick<Scheduler, 'wake'> }

const tags = ['Admin']
const adminUserJson = (u: AdminUser) => ({ ...userJson(u), disabled: u.disabled, servers: u.servers })

// The administrator's accounts: list, disable or enable, promote or demote, delete, and one-time
// password reset links. Every change is written to the audit log (GET /api/v1/admin/audit).
export function adminUserRoutes(rt: AdminUserRoutesDeps) {
  return new Elysia({ name: 'admin.user-routes' })
    .use(ownerAuth(rt))
    .get('/api/v1/admin/users', async () => ({
      ok: true as const,
      users: (await rt.store.users.listWithServerCounts()).map(adminUserJson),
    }), {
      admin: true,
      response: { 200: AdminUserList, ...AdminErrors },
      detail: { summary: 'All accounts', tags, description: 'Every account, oldest first, with whether it is disabled and the number of servers it owns. Administrators only: 401 without a session, 403 for other accounts (as every route under /api/v1/admin).' },
    })
    .patch('/api/v1/admin/users/:id', async ({ user, params, body }) => ({
      ok: true as const,
      user: adminUserJson(await changeUser(rt, user, params.id, body)),
    }), {
      admin: true, params: UserIdParams, body: UserPatchBody, transform: refuseUnknownFields(UserPatchBody),
      response: {
        200: AdminUserAnswer, ...AdminErrors, ...UnknownUser,
        400: errorAnswer('INVALID_PARAMETER: neither field given, a value that is not a boolean, or an unknown field; `field` names it.'),
        409: errorAnswer('CONFLICT: the change would leave no enabled administrator.'),
      },
      detail: {
        summary: 'Disable, enable, promote or demote an account', tags,
        description: '`{"disabled"?: boolean, "admin"?: boolean}`; at least one. Disabling ends the account\'s sessions at once (its cookie is refused from the next request on), refuses its logins (403), takes its servers out of the ranking, the public pages and API and the vote page (404), and refuses its API keys (401); enabling brings everything back. `admin` gives or removes the administrator right. 409 CONFLICT when the change would leave the site without an enabled administrator (the last one cannot be demoted or disabled, not even by themselves). Setting a value the account already has changes nothing and writes nothing to the audit log.',
      },
    })
    .delete('/api/v1/admin/users/:id', async ({ user, params }) => {
      await deleteUser(rt, user, params.id)
      return { ok: true as const }
    }, {
      admin: true, params: UserIdParams,
      response: {
        200: Ok, ...AdminErrors, ...UnknownUser,
        409: errorAnswer('CONFLICT: your own account, or the last enabled administrator.'),
      },
      detail: {
        summary: 'Delete an account with its servers', tags,
        description: 'Deletes the account and every server it owns, with their votes, API keys, notification settings, deliveries and statistics. Cannot be undone. 409 CONFLICT for your own account (another administrator can delete it) and for the last enabled administrator. 404 for an unknown id.',
      },
    })
    .post('/api/v1/admin/users/:id/reset-link', async ({ user, params }) => {
      const { token, expiresAt } = await issueResetToken(rt, user, params.id)
      return { ok: true as const, url: `${rt.siteUrl.base()}/dashboard/reset?token=${token}`, expiresAt: iso(expiresAt) }
    }, {
      admin: true, params: UserIdParams,
      response: { 200: ResetLinkAnswer, ...AdminErrors, ...UnknownUser },
      detail: {
        summary: 'A one-time password reset link', tags,
        description: 'A link to the dashboard\'s reset page for this account, to hand over by any means (no e-mail is sent). The token is 256 random bits, stored only as its SHA-256; it works once, expires after 24 hours, and a new link replaces the previous one. Its use (POST /api/v1/auth/reset) sets the new password and ends the account\'s other sessions. The link starts with site.base_url (or the default address when it is not set).',
      },
    })
}
