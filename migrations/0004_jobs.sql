-- The durable job queue. A job is claimed by setting a lease; a process that dies mid-job leaves
-- the lease to expire (or to be cleared at the next start) and the job runs again.
CREATE TABLE job (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  kind        TEXT NOT NULL,
  payload     TEXT NOT NULL DEFAULT '{}',
  run_at      INTEGER NOT NULL,
  attempts    INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER,
  last_error  TEXT,
  created_at  INTEGER NOT NULL
);
CREATE INDEX job_due ON job(run_at, id);
CREATE INDEX job_kind ON job(kind, run_at);
