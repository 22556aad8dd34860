-- The last ping round, for the administrator's view of the scheduled work: when it started,
-- how many servers it measured, how many answered, and how long the pings took. One row, written
-- in the round's own transaction.
CREATE TABLE last_ping_round (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  t           INTEGER NOT NULL,                     -- the round's start (a multiple of the interval)
  servers     INTEGER NOT NULL,
  up          INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  finished_at INTEGER NOT NULL
);
