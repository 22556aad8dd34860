-- Notification channels of a server and the durable record of every delivery and attempt.

CREATE TABLE webhook (
  server_id  TEXT PRIMARY KEY REFERENCES server(id) ON DELETE CASCADE,
  url        TEXT NOT NULL,
  secret     TEXT NOT NULL,                    -- whsec_…, kept to sign; revealable to the owner
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE votifier (
  server_id  TEXT PRIMARY KEY REFERENCES server(id) ON DELETE CASCADE,
  host       TEXT NOT NULL,
  port       INTEGER NOT NULL DEFAULT 8192 CHECK (port BETWEEN 1 AND 65535),
  protocol   TEXT NOT NULL CHECK (protocol IN ('v1', 'v2')),
  public_key TEXT,                             -- v1: base64 X.509 SubjectPublicKeyInfo, 2048-bit RSA
  token      TEXT,                             -- v2: shared HMAC token
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CHECK ((protocol = 'v1' AND public_key IS NOT NULL) OR (protocol = 'v2' AND token IS NOT NULL))
) WITHOUT ROWID;

-- One delivery per vote and configured channel, written in the vote's transaction (the outbox).
-- payload freezes what every attempt sends (webhook body fields, voter address, vote time).
CREATE TABLE delivery (
  id              TEXT PRIMARY KEY,
  server_id       TEXT NOT NULL REFERENCES server(id) ON DELETE CASCADE,
  vote_id         TEXT REFERENCES vote(id) ON DELETE CASCADE,   -- NULL for a test vote
  channel         TEXT NOT NULL CHECK (channel IN ('votifier', 'webhook')),
  test            INTEGER NOT NULL DEFAULT 0 CHECK (test IN (0, 1)),
  pseudo          TEXT NOT NULL,
  payload         TEXT NOT NULL DEFAULT '{}',
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'gave_up')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE INDEX delivery_server ON delivery(server_id, created_at);
CREATE INDEX delivery_vote ON delivery(vote_id);
CREATE INDEX delivery_status ON delivery(status, next_attempt_at);

-- One row per attempt, as listed in the Deliveries tab. AUTOINCREMENT: ids never reused, so
-- they order attempts and serve as the `before` paging cursor.
CREATE TABLE delivery_attempt (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id     TEXT NOT NULL REFERENCES delivery(id) ON DELETE CASCADE,
  server_id       TEXT NOT NULL,
  attempt         INTEGER NOT NULL,            -- 1 for the first try
  status          TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'gave_up')),
  error           TEXT,
  http_status     INTEGER,
  duration_ms     INTEGER,
  started_at      INTEGER NOT NULL,
  next_attempt_at INTEGER,
  UNIQUE (delivery_id, attempt)
);
CREATE INDEX delivery_attempt_list ON delivery_attempt(server_id, id);
