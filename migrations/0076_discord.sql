-- Votes to Discord: an owner's Discord webhook is a third delivery channel.
CREATE TABLE discord (
  server_id  TEXT PRIMARY KEY REFERENCES server(id) ON DELETE CASCADE,
  url        TEXT NOT NULL,                    -- https://discord.com/api/webhooks/<id>/<token>; the token is a secret
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;

-- delivery.channel takes 'discord'. SQLite changes a CHECK only by building the table again, and
-- delivery_attempt is built again with it: with foreign keys on (they are, in a migration's
-- transaction), dropping the old delivery would delete its attempts through the cascade. The new
-- tables are filled first, then the old ones dropped, children first, and the new ones renamed
-- (which points delivery_attempt's foreign key at the renamed table).
CREATE TABLE delivery_new (
  id              TEXT PRIMARY KEY,
  server_id       TEXT NOT NULL REFERENCES server(id) ON DELETE CASCADE,
  vote_id         TEXT REFERENCES vote(id) ON DELETE CASCADE,   -- NULL for a test vote
  channel         TEXT NOT NULL CHECK (channel IN ('votifier', 'webhook', 'discord')),
  test            INTEGER NOT NULL DEFAULT 0 CHECK (test IN (0, 1)),
  pseudo          TEXT NOT NULL,
  payload         TEXT NOT NULL DEFAULT '{}',
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'gave_up')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  series_start    INTEGER NOT NULL DEFAULT 1
);
INSERT INTO delivery_new (id, server_id, vote_id, channel, test, pseudo, payload, status, attempts, next_attempt_at, created_at, updated_at, series_start)
  SELECT id, server_id, vote_id, channel, test, pseudo, payload, status, attempts, next_attempt_at, created_at, updated_at, series_start FROM delivery;

-- rate_limited: the receiver asked to wait (Discord's 429 with retry_after). Such an attempt is
-- not counted in the retry schedule of its series.
CREATE TABLE delivery_attempt_new (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id     TEXT NOT NULL REFERENCES delivery_new(id) ON DELETE CASCADE,
  server_id       TEXT NOT NULL,
  attempt         INTEGER NOT NULL,            -- 1 for the first try
  status          TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'gave_up')),
  error           TEXT,
  http_status     INTEGER,
  duration_ms     INTEGER,
  started_at      INTEGER NOT NULL,
  next_attempt_at INTEGER,
  series_start    INTEGER NOT NULL DEFAULT 1,
  rate_limited    INTEGER NOT NULL DEFAULT 0 CHECK (rate_limited IN (0, 1)),
  UNIQUE (delivery_id, attempt)
);
INSERT INTO delivery_attempt_new (id, delivery_id, server_id, attempt, status, error, http_status, duration_ms, started_at, next_attempt_at, series_start)
  SELECT id, delivery_id, server_id, attempt, status, error, http_status, duration_ms, started_at, next_attempt_at, series_start FROM delivery_attempt;
-- Attempt ids are never reused (they page the Deliveries tab): the new table goes on from the old
-- counter, which may be past the largest id left.
DELETE FROM sqlite_sequence WHERE name = 'delivery_attempt_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'delivery_attempt_new', seq FROM sqlite_sequence WHERE name = 'delivery_attempt';

DROP TABLE delivery_attempt;
DROP TABLE delivery;
ALTER TABLE delivery_new RENAME TO delivery;
ALTER TABLE delivery_attempt_new RENAME TO delivery_attempt;
CREATE INDEX delivery_server ON delivery(server_id, created_at);
CREATE INDEX delivery_vote ON delivery(vote_id);
CREATE INDEX delivery_status ON delivery(status, next_attempt_at);
CREATE INDEX delivery_attempt_list ON delivery_attempt(server_id, id);
