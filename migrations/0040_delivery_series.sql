-- A manual redeliver starts a new series of attempts on an existing delivery: the retry schedule
-- counts from the series' first attempt. Each delivery job carries the series it belongs to; a
-- job of an older series (a retry that was pending when the owner redelivered) is stale and ends
-- without sending.
ALTER TABLE delivery ADD COLUMN series_start INTEGER NOT NULL DEFAULT 1;
