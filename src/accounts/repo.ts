import type { Database } from 'bun:sqlite'

export interface User {
  id: string
  email: string
  isAdmin: boolean
  createdAt: number
}
export interface UserWithHash extends User {
  passwordHash: string
}

const cols = 'id, email, password_hash AS passwordHash, is_admin AS isAdmin, created_at AS createdAt'
type Row = Omit<UserWithHash, 'isAdmin'> & { isAdmin: number }
const toUser = (r: Row | null): UserWithHash | null => (r ? { ...r, isAdmin: r.isAdmin === 1 } : null)

export function usersRepo(db: Database) {
  const insert = db.prepare('INSERT INTO user (id, email, email_key, password_hash, is_admin, created_at) VALUES (?, ?, ?, ?, ?, ?)')
  const byEmail = db.prepare(`SELECT ${cols} FROM user WHERE email_key = ?`)
  const byId = db.prepare(`SELECT ${cols} FROM user WHERE id = ?`)
  const count = db.prepare('SELECT count(*) AS n FROM user')
  const list = db.prepare(`SELECT ${cols} FROM user ORDER BY created_at, id`)
  return {
    insert(u: UserWithHash) {
      insert.run(u.id, u.email, u.email.toLowerCase(), u.passwordHash, u.isAdmin ? 1 : 0, u.createdAt)
    },
    byEmail: (email: string) => toUser(byEmail.get(email.toLowerCase()) as Row | null),
    byId: (id: string) => toUser(byId.get(id) as Row | null),
    count: () => (count.get() as { n: number }).n,
    list: () => (list.all() as Row[]).map((r) => toUser(r)!),
  }
}
export type UsersRepo = ReturnType<typeof usersRepo>

export const publicUser = ({ passwordHash: _h, ...u }: UserWithHash): User => u
