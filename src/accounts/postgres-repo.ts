import { exec, lockUntilCommit, row, rows, type Pg } from '../db/postgres-client.ts'
import { emailKey, emailKeys, publicUser, type PasswordReset, type PasswordResetsRepo, type SessionRow, type SessionsRepo, type SettingsRepo, type UserWithHash, type UsersRepo } from './repo.ts'

// "user" is a reserved word in PostgreSQL: quoted.
const cols = 'id, email, password_hash AS "passwordHash", is_admin AS "isAdmin", disabled_at IS NOT NULL AS disabled, created_at AS "createdAt"'
type Row = Omit<UserWithHash, 'isAdmin'> & { isAdmin: number }
const toUser = (r: Row | null): UserWithHash | null => (r ? { ...r, isAdmin: r.isAdmin === 1 } : null)

// The key of the advisory lock that serialises account creations: "user" in ASCII.
const CREATION_LOCK = 0x75736572

export function postgresUsersRepo(pg: Pg) {
  return {
    // Without it, two sign-ups at once each miss the other's uncommitted row: both pass the
    // address check and the second fails on the unique key, or both become the administrator.
    serialiseCreation: () => lockUntilCommit(pg, CREATION_LOCK),
    async insert(u) {
      await exec(pg, 'INSERT INTO "user" (id, email, email_key, password_hash, is_admin, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [u.id, u.email, emailKey(u.email), u.passwordHash, u.isAdmin ? 1 : 0, u.createdAt])
    },
    byEmail: async (email) => toUser(await row<Row>(pg, `SELECT ${cols} FROM "user" WHERE email_key IN ($1, $2) LIMIT 1`, emailKeys(email))),
    byId: async (id) => toUser(await row<Row>(pg, `SELECT ${cols} FROM "user" WHERE id = $1 AND deleted_at IS NULL`, [id])),
    count: async () => (await row<{ n: number }>(pg, 'SELECT count(*) AS n FROM "user"'))!.n,
    list: async () => (await rows<Row>(pg, `SELECT ${cols} FROM "user" WHERE deleted_at IS NULL ORDER BY created_at, id`)).map((r) => toUser(r)!),
    async listWithServerCounts() {
      const found = await rows<Row & { servers: number }>(pg, `SELECT ${cols}, (SELECT count(*) FROM server s WHERE s.owner_id = u.id AND s.deleted_at IS NULL) AS servers
        FROM "user" u WHERE deleted_at IS NULL ORDER BY created_at, id`)
      return found.map((r) => ({ ...publicUser(toUser(r)!), servers: r.servers }))
    },
    // The rows counted are locked until the transaction ends: two administrators demoting or
    // disabling each other at once are counted one after the other (the second sees the first's
    // change), so the site keeps one, as with SQLite's serial writes.
    countEnabledAdmins: async () => (await row<{ n: number }>(pg,
      'SELECT count(*) AS n FROM (SELECT 1 FROM "user" WHERE is_admin = 1 AND disabled_at IS NULL FOR UPDATE) a'))!.n,
    async setAdmin(id, admin) {
      await exec(pg, 'UPDATE "user" SET is_admin = $2 WHERE id = $1', [id, admin ? 1 : 0])
    },
    async setDisabled(id, at) {
      await exec(pg, 'UPDATE "user" SET disabled_at = $2 WHERE id = $1', [id, at])
    },
    async setPasswordHash(id, passwordHash) {
      await exec(pg, 'UPDATE "user" SET password_hash = $2 WHERE id = $1', [id, passwordHash])
    },
    // Deleting an account: marked at once, removed once its servers are (src/servers/purge.ts).
    markDeleted: async (id, at) => (await exec(pg, `UPDATE "user" SET deleted_at = $2, email_key = '~' || id,
      disabled_at = coalesce(disabled_at, $2) WHERE id = $1 AND deleted_at IS NULL`, [id, at])) > 0,
    removeDeleted: () => exec(pg, 'DELETE FROM "user" u WHERE deleted_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM server s WHERE s.owner_id = u.id)'),
  } satisfies UsersRepo
}

export function postgresSessionsRepo(pg: Pg) {
  return {
    async insert(s) {
      await exec(pg, 'INSERT INTO session (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [s.id, s.userId, s.createdAt, s.expiresAt])
    },
    // FOR SHARE: a reset or a disabling under way holds the account's row; the insert waits for it
    // and then reads the row as it committed it. One that starts after waits for this insert, and
    // then ends the session with the others.
    insertIfCurrent: async (s, hash) => (await exec(pg, `INSERT INTO session (id, user_id, created_at, expires_at) SELECT $1::text, $2::text, $3::bigint, $4::bigint
      WHERE EXISTS (SELECT 1 FROM "user" WHERE id = $2 AND password_hash = $5 AND disabled_at IS NULL FOR SHARE)`,
    [s.id, s.userId, s.createdAt, s.expiresAt, hash])) > 0,
    active: (id, now) => row<SessionRow>(pg,
      'SELECT id, user_id AS "userId", expires_at AS "expiresAt" FROM session WHERE id = $1 AND revoked_at IS NULL AND expires_at > $2', [id, now]),
    revoke: async (id, at) => (await exec(pg, 'UPDATE session SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id])) > 0,
    revokeAllOf: (userId, at) => exec(pg, 'UPDATE session SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL', [at, userId]),
    purgeExpired: (now) => exec(pg, 'DELETE FROM session WHERE expires_at <= $1', [now]),
  } satisfies SessionsRepo
}

export function postgresPasswordResetsRepo(pg: Pg) {
  return {
    async put(r) {
      await exec(pg, `INSERT INTO password_reset (user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)
        ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      [r.userId, r.tokenHash, r.createdAt, r.expiresAt])
    },
    // Locked until the transaction ends: of two uses of one link at once, the second waits, then
    // finds it removed.
    byHash: (tokenHash) => row<PasswordReset>(pg, `SELECT user_id AS "userId", token_hash AS "tokenHash", created_at AS "createdAt",
      expires_at AS "expiresAt" FROM password_reset WHERE token_hash = $1 FOR UPDATE`, [tokenHash]),
    async remove(userId) {
      await exec(pg, 'DELETE FROM password_reset WHERE user_id = $1', [userId])
    },
    purgeExpired: (now) => exec(pg, 'DELETE FROM password_reset WHERE expires_at <= $1', [now]),
  } satisfies PasswordResetsRepo
}

export function postgresSettingsRepo(pg: Pg) {
  return {
    get: async (key) => (await row<{ value: string }>(pg, 'SELECT value FROM setting WHERE key = $1', [key]))?.value ?? null,
  } satisfies SettingsRepo
}
