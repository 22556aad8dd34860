import type { Database } from 'bun:sqlite'
import { emailKey, emailKeys, publicUser, type PasswordReset, type PasswordResetsRepo, type SessionRow, type SessionsRepo, type SettingsRepo, type UserWithHash, type UsersRepo } from './repo.ts'

const cols = 'id, email, password_hash AS passwordHash, is_admin AS isAdmin, disabled_at IS NOT NULL AS disabled, created_at AS createdAt'
type Row = Omit<UserWithHash, 'isAdmin' | 'disabled'> & { isAdmin: number; disabled: number }
const toUser = (r: Row | null): UserWithHash | null => (r ? { ...r, isAdmin: r.isAdmin === 1, disabled: r.disabled === 1 } : null)

export function sqliteUsersRepo(db: Database) {
  const insert = db.prepare('INSERT INTO user (id, email, email_key, password_hash, is_admin, created_at) VALUES (?, ?, ?, ?, ?, ?)')
  const byEmail = db.prepare(`SELECT ${cols} FROM user WHERE email_key IN (?, ?)`)
  const byId = db.prepare(`SELECT ${cols} FROM user WHERE id = ? AND deleted_at IS NULL`)
  const count = db.prepare('SELECT count(*) AS n FROM user')
  const list = db.prepare(`SELECT ${cols} FROM user WHERE deleted_at IS NULL ORDER BY created_at, id`)
  const listCounted = db.prepare(`SELECT ${cols}, (SELECT count(*) FROM server s WHERE s.owner_id = user.id AND s.deleted_at IS NULL) AS servers
    FROM user WHERE deleted_at IS NULL ORDER BY created_at, id`)
  const enabledAdmins = db.prepare('SELECT count(*) AS n FROM user WHERE is_admin = 1 AND disabled_at IS NULL')
  const setAdmin = db.prepare('UPDATE user SET is_admin = ? WHERE id = ?')
  const setDisabled = db.prepare('UPDATE user SET disabled_at = ? WHERE id = ?')
  const setHash = db.prepare('UPDATE user SET password_hash = ? WHERE id = ?')
  // Deleting an account: marked at once, removed once its servers are (src/servers/purge.ts).
  const markDeleted = db.prepare(`UPDATE user SET deleted_at = ?2, email_key = '~' || id, disabled_at = coalesce(disabled_at, ?2)
    WHERE id = ?1 AND deleted_at IS NULL`)
  const removeDeleted = db.prepare('DELETE FROM user WHERE deleted_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM server s WHERE s.owner_id = user.id)')
  return {
    serialiseCreation() {},
    insert(u) {
      insert.run(u.id, u.email, emailKey(u.email), u.passwordHash, u.isAdmin ? 1 : 0, u.createdAt)
    },
    byEmail: (email) => toUser(byEmail.get(...emailKeys(email)) as Row | null),
    byId: (id) => toUser(byId.get(id) as Row | null),
    count: () => (count.get() as { n: number }).n,
    list: () => (list.all() as Row[]).map((r) => toUser(r)!),
    listWithServerCounts: () => (listCounted.all() as (Row & { servers: number })[]).map((r) => ({ ...publicUser(toUser(r)!), servers: r.servers })),
    countEnabledAdmins: () => (enabledAdmins.get() as { n: number }).n,
    setAdmin: (id, admin) => { setAdmin.run(admin ? 1 : 0, id) },
    setDisabled: (id, at) => { setDisabled.run(at, id) },
    setPasswordHash: (id, passwordHash) => { setHash.run(passwordHash, id) },
    markDeleted: (id, at) => markDeleted.run(id, at).changes > 0,
    removeDeleted: () => removeDeleted.run().changes,
  } satisfies UsersRepo
}

export function sqliteSessionsRepo(db: Database) {
  const insert = db.prepare('INSERT INTO session (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
  // SQLite writes one transaction at a time: a reset or a disabling is wholly before or after.
  const insertIfCurrent = db.prepare(`INSERT INTO session (id, user_id, created_at, expires_at) SELECT ?, ?, ?, ?
    WHERE EXISTS (SELECT 1 FROM user WHERE id = ? AND password_hash = ? AND disabled_at IS NULL)`)
  const active = db.prepare('SELECT id, user_id AS userId, expires_at AS expiresAt FROM session WHERE id = ? AND revoked_at IS NULL AND expires_at > ?')
  const revoke = db.prepare('UPDATE session SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
  const revokeUser = db.prepare('UPDATE session SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL')
  const purge = db.prepare('DELETE FROM session WHERE expires_at <= ?')
  return {
    insert: (s) => { insert.run(s.id, s.userId, s.createdAt, s.expiresAt) },
    insertIfCurrent: (s, hash) => insertIfCurrent.run(s.id, s.userId, s.createdAt, s.expiresAt, s.userId, hash).changes > 0,
    active: (id, now) => active.get(id, now) as SessionRow | null,
    revoke: (id, at) => revoke.run(at, id).changes > 0,
    revokeAllOf: (userId, at) => revokeUser.run(at, userId).changes,
    purgeExpired: (now) => purge.run(now).changes,
  } satisfies SessionsRepo
}

export function sqlitePasswordResetsRepo(db: Database) {
  const put = db.prepare(`INSERT INTO password_reset (user_id, token_hash, created_at, expires_at) VALUES ($userId, $tokenHash, $createdAt, $expiresAt)
    ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at, expires_at = excluded.expires_at`)
  const byHash = db.prepare('SELECT user_id AS userId, token_hash AS tokenHash, created_at AS createdAt, expires_at AS expiresAt FROM password_reset WHERE token_hash = ?')
  const remove = db.prepare('DELETE FROM password_reset WHERE user_id = ?')
  const purge = db.prepare('DELETE FROM password_reset WHERE expires_at <= ?')
  return {
    put: (r) => { put.run({ ...r }) },
    byHash: (tokenHash) => byHash.get(tokenHash) as PasswordReset | null,
    remove: (userId) => { remove.run(userId) },
    purgeExpired: (now) => purge.run(now).changes,
  } satisfies PasswordResetsRepo
}

export function sqliteSettingsRepo(db: Database) {
  const get = db.prepare('SELECT value FROM setting WHERE key = ?')
  return { get: (key) => (get.get(key) as { value: string } | null)?.value ?? null } satisfies SettingsRepo
}
