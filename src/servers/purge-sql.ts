// The SQL of deleting a server, the same on SQLite and PostgreSQL but for their parameters (`p(1)`:
// `?1` or `$1`). Removing a server with one DELETE let ON DELETE CASCADE remove all its votes,
// addresses, counters and deliveries in one transaction, which held the database's write lock for
// as long as it took (11 to 17 s for a server with 2.4 million votes on SQLite: every vote, plugin
// check and login of the site waited, and writes behind a 5 s busy_timeout failed). So a deletion
// is two parts (src/servers/purge.ts):
// - MARK, one short transaction: the row is marked deleted_at and leaves every list (the queries
//   that show servers to anyone skip a marked row), its slug becomes `~<id>` (which no slug can
//   be: the old one is free at once), it is hidden (out of the public site, the ping rounds and
//   the vote path), unverified (its address claims nothing), and its API keys, webhook, Votifier
//   target and Discord webhook are deleted (the plugins' checks are refused, nothing more is
//   delivered). The update bumps listing_version: every cached page drops it.
// - STEPS, each a transaction of its own: at most PURGE_ROWS rows of one table, deliveries first
//   (each vote's deletion would look them up), then the server row once nothing big is left (its
//   cascade removes the few rows that remain: modes, status, icon, banner).

export const PURGE_ROWS = 2000

type Param = (n: number) => string

export const markSql = (p: Param) => [
  `UPDATE server SET deleted_at = ${p(2)}, slug = '~' || id, hidden = 1, verified_at = NULL, verify_token = NULL
    WHERE id = ${p(1)} AND deleted_at IS NULL`,
  ...['api_key', 'webhook', 'votifier', 'discord'].map((t) => `DELETE FROM ${t} WHERE server_id = ${p(1)}`),
]

// The tables removed by steps, with the key of their rows (the server's id or num and the rest of
// the primary key). `lock`: PostgreSQL's `FOR UPDATE SKIP LOCKED`, so that two instances purging
// at once take different rows instead of waiting for each other's.
const STEPPED: [table: string, by: 'server_id' | 'server_num', key: string][] = [
  ['delivery_attempt', 'server_id', 'id'],
  ['delivery', 'server_id', 'id'],
  ['vote_address', 'server_id', 'ip_key, created_at'],
  ['voter_month', 'server_id', 'month, pseudo_key'],
  ['server_month', 'server_id', 'month'],
  ['vote', 'server_id', 'id'],
  ['ping_sample', 'server_num', 't'],
  ['ping_hourly', 'server_num', 't'],
  ['ping_daily', 'server_num', 't'],
]

// Each: one DELETE of at most PURGE_ROWS rows, its parameter 1 the server's id or num.
export const stepSql = (p: Param, lock = '') => STEPPED.map(([table, by, key]) => ({
  by,
  sql: `DELETE FROM ${table} WHERE ${by} = ${p(1)} AND (${key}) IN (SELECT ${key} FROM ${table} WHERE ${by} = ${p(1)} LIMIT ${PURGE_ROWS}${lock})`,
}))

// The server row, once no stepped table holds any of its rows (parameters: its id, its num).
export const lastSql = (p: Param) => `DELETE FROM server WHERE id = ${p(1)} AND deleted_at IS NOT NULL
  ${STEPPED.map(([table, by]) => `AND NOT EXISTS (SELECT 1 FROM ${table} WHERE ${by} = ${p(by === 'server_id' ? 1 : 2)})`).join('\n  ')}`
