-- PostgreSQL twin of migrations/0005_stats.sql. Keyed by server.num to keep millions of rows small.
CREATE TABLE server_status (
  server_num     integer PRIMARY KEY REFERENCES server(num) ON DELETE CASCADE,
  online         smallint NOT NULL CHECK (online IN (0, 1)),
  players_online integer NOT NULL DEFAULT 0,
  players_max    integer NOT NULL DEFAULT 0,
  version        text,
  motd           text,
  latency_ms     integer,
  error          text,
  last_ping_at   bigint NOT NULL
);

CREATE TABLE ping_sample (
  server_num integer NOT NULL REFERENCES server(num) ON DELETE CASCADE,
  t          bigint NOT NULL,
  players    integer NOT NULL,
  up         smallint NOT NULL CHECK (up IN (0, 1)),
  PRIMARY KEY (server_num, t)
);
CREATE INDEX ping_sample_t ON ping_sample(t);

-- Sums are bigint: a day of a busy scope's rounds can pass 2^31 players.
CREATE TABLE ping_hourly (
  server_num integer NOT NULL REFERENCES server(num) ON DELETE CASCADE,
  t          bigint NOT NULL,
  samples    integer NOT NULL,
  up         integer NOT NULL,
  sum        bigint NOT NULL,
  min        integer NOT NULL,
  max        integer NOT NULL,
  PRIMARY KEY (server_num, t)
);

CREATE TABLE ping_daily (
  server_num integer NOT NULL REFERENCES server(num) ON DELETE CASCADE,
  t          bigint NOT NULL,
  samples    integer NOT NULL,
  up         integer NOT NULL,
  sum        bigint NOT NULL,
  min        integer NOT NULL,
  max        integer NOT NULL,
  PRIMARY KEY (server_num, t)
);

CREATE TABLE global_sample (
  scope   text COLLATE "C" NOT NULL,
  t       bigint NOT NULL,
  players bigint NOT NULL,
  servers integer NOT NULL,
  up      integer NOT NULL,
  PRIMARY KEY (scope, t)
);
CREATE INDEX global_sample_t ON global_sample(t);

CREATE TABLE global_hourly (
  scope   text COLLATE "C" NOT NULL,
  t       bigint NOT NULL,
  rounds  integer NOT NULL,
  servers bigint NOT NULL,
  up      bigint NOT NULL,
  sum     bigint NOT NULL,
  min     bigint NOT NULL,
  max     bigint NOT NULL,
  PRIMARY KEY (scope, t)
);

CREATE TABLE global_daily (
  scope   text COLLATE "C" NOT NULL,
  t       bigint NOT NULL,
  rounds  integer NOT NULL,
  servers bigint NOT NULL,
  up      bigint NOT NULL,
  sum     bigint NOT NULL,
  min     bigint NOT NULL,
  max     bigint NOT NULL,
  PRIMARY KEY (scope, t)
);
