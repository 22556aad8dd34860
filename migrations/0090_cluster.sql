-- What several instances sharing one PostgreSQL database keep in it: the counters of the rate
-- limits (so a limit holds whichever instance answers) and the claims of the scheduled tasks (so a
-- task runs once per period across them). One SQLite process keeps its limits in memory and runs
-- every task itself: on SQLite these tables stay empty, and exist so that both backends have the
-- same schema.
CREATE TABLE rate_limit (
  name       TEXT NOT NULL,
  key        TEXT NOT NULL,
  counts     TEXT NOT NULL,
  lasts      TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (name, key)
) WITHOUT ROWID;
CREATE TABLE task_run (
  task        TEXT PRIMARY KEY,
  period      INTEGER NOT NULL,
  holder      TEXT NOT NULL,
  claimed_at  INTEGER NOT NULL,
  finished_at INTEGER
) WITHOUT ROWID;
