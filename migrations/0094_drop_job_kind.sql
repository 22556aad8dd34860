-- The job queue's claim filters on kind without an index (`+kind`: the due rows, in run_at
-- order, are what it walks), so job_kind(kind, run_at) served no query and cost every job an
-- index entry written at its enqueue and its reschedules, and removed at its end.
DROP INDEX IF EXISTS job_kind;
