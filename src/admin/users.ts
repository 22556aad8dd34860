import { publicUser, type SessionsRepo, type User, type UserWithHash, type UsersRepo } from '../accounts/repo.ts'
import type { AuditRepo } from '../audit/repo.ts'
import { audit } from '../audit/service.ts'
import type { Clock } from '../clock.ts'
import { use, type Awaitable, type StoreWrites, type TxScript } from '../db/store.ts'
import { invalidParameter, notFound, refusal } from '../http/errors.ts'
import type { Scheduler } from '../jobs/scheduler.ts'
import { PURGE_TASK } from '../servers/purge.ts'
import type { ServersRepo } from '../servers/repo.ts'
import { markServerDeleted } from '../servers/service.ts'

// An administrator's changes to accounts: disable and enable, promote and demote, delete. Each
// is one transaction with its audit entry. The site always keeps an administrator who can log in:
// the last one cannot be demoted, disabled or deleted, by anyone, themselves included.

interface AdminTx {
  users: UsersRepo
  sessions: SessionsRepo
  servers: ServersRepo
  audit: AuditRepo
  // VotesRepo.serialise: a server's queue of votes.
  votes: { serialise(serverId: string): Awaitable<void> }
}

export interface AdminUsersDeps {
  store: AdminTx & StoreWrites<AdminTx>
  clock: Clock
  // The API keys' cache holds each key's server: a disabled or deleted owner's keys are looked up
  // again at the next request, and refused.
  keyCache: { forgetServer(serverId: string): void }
  // Starts the purge of a deleted account's servers at once (src/servers/purge.ts).
  scheduler?: Pick<Scheduler, 'wake'>
}

export interface UserPatch {
  disabled?: boolean
  admin?: boolean
}

export type AdminUser = User & { servers: number }

const target = (u: User) => ({ type: 'user' as const, id: u.id, label: u.email })

function* targetUser(tx: AdminTx, id: string): TxScript<UserWithHash> {
  const user = yield* use(tx.users.byId(id))
  if (!user) throw notFound(`no account with the id ${id}`)
  return user
}

// Refuses a change after which the site would have no administrator able to log in.
function* keepAnAdministrator(tx: AdminTx, user: User, stays: boolean, change: string): TxScript<void> {
  if (!user.isAdmin || user.disabled || stays) return
  if ((yield* use(tx.users.countEnabledAdmins())) <= 1) {
    throw refusal('LAST_ADMIN', `${change} refused: ${user.email} is the only administrator who can log in; make another account administrator first`)
  }
}

// The keys of these servers are refused from the next request on (their owner was disabled or
// deleted), not after the cache's recheck.
const forgetKeys = (deps: AdminUsersDeps, serverIds: string[]) => { for (const id of serverIds) deps.keyCache.forgetServer(id) }

export async function changeUser(deps: AdminUsersDeps, actor: User, id: string, patch: UserPatch): Promise<AdminUser> {
  if (patch.disabled === undefined && patch.admin === undefined) throw invalidParameter('nothing to change: give "disabled", "admin" or both')
  const { user, serverIds, disabledNow } = await deps.store.write(function* (tx) {
    const now = deps.clock.now()
    const before = yield* targetUser(tx, id)
    const admin = patch.admin ?? before.isAdmin
    const disabled = patch.disabled ?? before.disabled
    const change = !admin && before.isAdmin ? 'removing the administrator right' : 'disabling the account'
    yield* keepAnAdministrator(tx, before, admin && !disabled, change)
    if (disabled !== before.disabled) {
      yield* use(tx.users.setDisabled(id, disabled ? now : null))
      // Its sessions end now: every request with its cookie is refused from the next one on.
      if (disabled) yield* use(tx.sessions.revokeAllOf(id, now))
      yield* audit(tx, now, actor, disabled ? 'user.disable' : 'user.enable', target(before))
    }
    if (admin !== before.isAdmin) {
      yield* use(tx.users.setAdmin(id, admin))
      yield* audit(tx, now, actor, admin ? 'user.promote' : 'user.demote', target(before))
    }
    const servers = yield* use(tx.servers.byOwner(id))
    return {
      user: { ...publicUser(before), isAdmin: admin, disabled, servers: servers.length },
      serverIds: servers.map((s) => s.id),
      disabledNow: disabled && !before.disabled,
    }
  })
  if (disabledNow) forgetKeys(deps, serverIds)
  return user
}

// Deletes the account with its servers and everything theirs (votes, keys, channels,
// deliveries, statistics). At once the account can no longer log in (its sessions end), its
// address is free, and it and its servers leave every list; their rows are removed afterwards by
// the purge (src/servers/purge.ts), the account's last. An administrator does not delete their
// own account here: it is the one they act with, and another administrator can.
export async function deleteUser(deps: AdminUsersDeps, actor: User, id: string): Promise<void> {
  const serverIds = await deps.store.write(function* (tx) {
    const now = deps.clock.now()
    const user = yield* targetUser(tx, id)
    if (user.id === actor.id) throw refusal('OWN_ACCOUNT', 'you cannot delete your own account: another administrator can')
    yield* keepAnAdministrator(tx, user, false, 'deleting the account')
    const servers = yield* use(tx.servers.byOwner(id))
    for (const s of servers) yield* markServerDeleted(tx, s.id, now)
    yield* use(tx.sessions.revokeAllOf(id, now))
    yield* use(tx.users.markDeleted(id, now))
    yield* audit(tx, now, actor, 'user.delete', target(user), { servers: servers.length })
    return servers.map((s) => s.id)
  })
  forgetKeys(deps, serverIds)
  deps.scheduler?.wake(PURGE_TASK)
}
