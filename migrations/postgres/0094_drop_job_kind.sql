-- The twin of migrations/0094_drop_job_kind.sql: the claim takes due jobs in run_at order
-- (job_due), their kind checked row by row; job_kind(kind, run_at) only cost every job an index
-- entry.
DROP INDEX IF EXISTS job_kind;
