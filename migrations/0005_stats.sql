-- Player-count measurements. Keyed by server.num to keep millions of rows small.

-- Latest ping result of each server, shown on its page and in the list.
CREATE TABLE server_status (
  server_num     INTEGER PRIMARY KEY REFERENCES server(num) ON DELETE CASCADE,
  online         INTEGER NOT NULL CHECK (online IN (0, 1)),
  players_online INTEGER NOT NULL DEFAULT 0,
  players_max    INTEGER NOT NULL DEFAULT 0,
  version        TEXT,
  motd           TEXT,
  latency_ms     INTEGER,
  error          TEXT,
  last_ping_at   INTEGER NOT NULL
);

-- One row per server per ping round; t is the round's start. A failed ping is players 0, up 0.
-- Kept at least 30 days; the rollups below are kept forever.
CREATE TABLE ping_sample (
  server_num INTEGER NOT NULL REFERENCES server(num) ON DELETE CASCADE,
  t          INTEGER NOT NULL,
  players    INTEGER NOT NULL,
  up         INTEGER NOT NULL CHECK (up IN (0, 1)),
  PRIMARY KEY (server_num, t)
) WITHOUT ROWID;
CREATE INDEX ping_sample_t ON ping_sample(t);

-- Hourly and daily rollups: t is the slice start (UTC); samples = measurements in the slice,
-- up = how many of them succeeded, sum/min/max = players.
CREATE TABLE ping_hourly (
  server_num INTEGER NOT NULL REFERENCES server(num) ON DELETE CASCADE,
  t          INTEGER NOT NULL,
  samples    INTEGER NOT NULL,
  up         INTEGER NOT NULL,
  sum        INTEGER NOT NULL,
  min        INTEGER NOT NULL,
  max        INTEGER NOT NULL,
  PRIMARY KEY (server_num, t)
) WITHOUT ROWID;

CREATE TABLE ping_daily (
  server_num INTEGER NOT NULL REFERENCES server(num) ON DELETE CASCADE,
  t          INTEGER NOT NULL,
  samples    INTEGER NOT NULL,
  up         INTEGER NOT NULL,
  sum        INTEGER NOT NULL,
  min        INTEGER NOT NULL,
  max        INTEGER NOT NULL,
  PRIMARY KEY (server_num, t)
) WITHOUT ROWID;

-- Global series: per ping round, the players of every server in a scope summed.
-- scope: 'all', 'edition:<e>', 'mode:<m>', 'edition:<e>/mode:<m>'. servers = measurements
-- taken in the round, up = those that succeeded (uptime and points count server measurements).
CREATE TABLE global_sample (
  scope   TEXT NOT NULL,
  t       INTEGER NOT NULL,
  players INTEGER NOT NULL,
  servers INTEGER NOT NULL,
  up      INTEGER NOT NULL,
  PRIMARY KEY (scope, t)
) WITHOUT ROWID;
CREATE INDEX global_sample_t ON global_sample(t);

CREATE TABLE global_hourly (
  scope   TEXT NOT NULL,
  t       INTEGER NOT NULL,
  rounds  INTEGER NOT NULL,
  servers INTEGER NOT NULL,
  up      INTEGER NOT NULL,
  sum     INTEGER NOT NULL,
  min     INTEGER NOT NULL,
  max     INTEGER NOT NULL,
  PRIMARY KEY (scope, t)
) WITHOUT ROWID;

CREATE TABLE global_daily (
  scope   TEXT NOT NULL,
  t       INTEGER NOT NULL,
  rounds  INTEGER NOT NULL,
  servers INTEGER NOT NULL,
  up      INTEGER NOT NULL,
  sum     INTEGER NOT NULL,
  min     INTEGER NOT NULL,
  max     INTEGER NOT NULL,
  PRIMARY KEY (scope, t)
) WITHOUT ROWID;
