import type { Database } from 'bun:sqlite'
import { publicUser, type SessionRow, type SessionsRepo, type SettingsRepo, type UserWithHash, type UsersRepo } from './repo.ts'

const cols = 'id, email, password_hash AS passwordHash, is_admin AS isAdmin, created_at AS createdAt'
type Row = Omit<UserWithHash, 'isAdmin'> & { isAdmin: number }
const toUser = (r: Row | null): UserWithHash | null => (r ? { ...r, isAdmin: r.isAdmin === 1 } : null)

export function sqliteUsersRepo(db: Database) {
  const insert = db.prepare('INSERT INTO user (id, email, email_key, password_hash, is_admin, created_at) VALUES (?, ?, ?, ?, ?, ?)')
  const byEmail = db.prepare(`SELECT ${cols} FROM user WHERE email_key = ?`)
  const byId = db.prepare(`SELECT ${cols} FROM user WHERE id = ?`)
  const count = db.prepare('SELECT count(*) AS n FROM user')
  const list = db.prepare(`SELECT ${cols} FROM user ORDER BY created_at, id`)
  const listCounted = db.prepare(`SELECT ${cols}, (SELECT count(*) FROM server s WHERE s.owner_id = user.id) AS servers
    FROM user ORDER BY created_at, id`)
  return {
    insert(u) {
      insert.run(u.id, u.email, u.email.toLowerCase(), u.passwordHash, u.isAdmin ? 1 : 0, u.createdAt)
    },
    byEmail: (email) => toUser(byEmail.get(email.toLowerCase()) as Row | null),
    byId: (id) => toUser(byId.get(id) as Row | null),
    count: () => (count.get() as { n: number }).n,
    list: () => (list.all() as Row[]).map((r) => toUser(r)!),
    listWithServerCounts: () => (listCounted.all() as (Row & { servers: number })[]).map((r) => ({ ...publicUser(toUser(r)!), servers: r.servers })),
  } satisfies UsersRepo
}

export function sqliteSessionsRepo(db: Database) {
  const insert = db.prepare('INSERT INTO session (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
  const active = db.prepare('SELECT id, user_id AS userId, expires_at AS expiresAt FROM session WHERE id = ? AND revoked_at IS NULL AND expires_at > ?')
  const revoke = db.prepare('UPDATE session SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
  const revokeUser = db.prepare('UPDATE session SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL')
  const purge = db.prepare('DELETE FROM session WHERE expires_at <= ?')
  return {
    insert: (s) => { insert.run(s.id, s.userId, s.createdAt, s.expiresAt) },
    active: (id, now) => active.get(id, now) as SessionRow | null,
    revoke: (id, at) => revoke.run(at, id).changes > 0,
    revokeAllOf: (userId, at) => revokeUser.run(at, userId).changes,
    purgeExpired: (now) => purge.run(now).changes,
  } satisfies SessionsRepo
}

export function sqliteSettingsRepo(db: Database) {
  const get = db.prepare('SELECT value FROM setting WHERE key = ?')
  return { get: (key) => (get.get(key) as { value: string } | null)?.value ?? null } satisfies SettingsRepo
}
