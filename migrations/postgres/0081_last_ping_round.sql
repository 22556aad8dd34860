-- PostgreSQL twin of migrations/0081_last_ping_round.sql: the last ping round, one row, written
-- in the round's own transaction by whichever instance ran it.
CREATE TABLE last_ping_round (
  id          smallint PRIMARY KEY CHECK (id = 1),
  t           bigint NOT NULL,
  servers     integer NOT NULL,
  up          integer NOT NULL,
  duration_ms integer NOT NULL,
  finished_at bigint NOT NULL
);
