-- What an administrator does from the dashboard: disable accounts, give one-time password reset
-- links, and the audit log of every such change.

-- A disabled account cannot log in, its sessions are refused, its servers leave the public list
-- and its API keys stop working. NULL: enabled.
ALTER TABLE user ADD COLUMN disabled_at INTEGER;

-- At most one reset link per account: a new link replaces the previous one. Only the token's
-- SHA-256 (hex) is kept; the row is deleted when the link is used.
CREATE TABLE password_reset (
  user_id    TEXT PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX password_reset_expiry ON password_reset(expires_at);

-- Who changed what, when, on which target (and who downloaded a backup of the database). No foreign keys: an entry outlives the accounts and
-- servers it names, so the names are copied in (actor_email, target_label). AUTOINCREMENT: ids
-- never reused, they order the log and page it.
CREATE TABLE audit_event (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  at           INTEGER NOT NULL,
  actor_id     TEXT NOT NULL,
  actor_email  TEXT NOT NULL,
  action       TEXT NOT NULL,
  target_type  TEXT NOT NULL CHECK (target_type IN ('user', 'server', 'site')),
  target_id    TEXT NOT NULL,
  target_label TEXT NOT NULL,
  detail       TEXT NOT NULL DEFAULT '{}'           -- JSON object
);
