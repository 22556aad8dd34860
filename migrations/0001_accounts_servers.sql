-- Accounts, listed servers and their API keys. Times are integer milliseconds since the epoch (UTC).

-- Site-wide values created once, e.g. the secret that signs sessions, captcha challenges and
-- dual-stack tokens. Generated here so a fresh database needs no extra configuration.
CREATE TABLE setting (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO setting (key, value) VALUES ('secret', lower(hex(randomblob(32))));

CREATE TABLE user (
  id            TEXT PRIMARY KEY,
  email         TEXT NOT NULL,                 -- as typed
  email_key     TEXT NOT NULL UNIQUE,          -- lower-cased, for lookups and uniqueness
  password_hash TEXT NOT NULL,                 -- Bun.password (argon2id) PHC string
  is_admin      INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
  created_at    INTEGER NOT NULL
);

-- Server-side record of every session so that logout and revocation survive a restart.
CREATE TABLE session (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX session_user ON session(user_id);
CREATE INDEX session_expiry ON session(expires_at);

-- `num` is the compact internal key used by the high-volume statistics tables; `id` is the
-- opaque identifier the API shows.
CREATE TABLE server (
  num         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  owner_id    TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
  slug        TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  host        TEXT NOT NULL,
  port        INTEGER CHECK (port BETWEEN 1 AND 65535),   -- NULL: the edition's default (SRV for Java)
  edition     TEXT NOT NULL DEFAULT 'java' CHECK (edition IN ('java', 'bedrock')),
  version     TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  website     TEXT NOT NULL DEFAULT '',
  hidden      INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX server_owner ON server(owner_id, created_at);
CREATE INDEX server_listed ON server(hidden, edition, created_at);

CREATE TABLE server_mode (
  server_id TEXT NOT NULL REFERENCES server(id) ON DELETE CASCADE,
  mode      TEXT NOT NULL,
  PRIMARY KEY (server_id, mode)
) WITHOUT ROWID;
CREATE INDEX server_mode_mode ON server_mode(mode, server_id);

-- Keys are shown once; only their SHA-256 (hex) is kept.
CREATE TABLE api_key (
  id           TEXT PRIMARY KEY,
  server_id    TEXT NOT NULL REFERENCES server(id) ON DELETE CASCADE,
  hash         TEXT NOT NULL UNIQUE,
  prefix       TEXT NOT NULL,                  -- first 8 characters, e.g. vlk_abcd
  name         TEXT NOT NULL DEFAULT '',
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at   INTEGER
);
CREATE INDEX api_key_server ON api_key(server_id, created_at);
