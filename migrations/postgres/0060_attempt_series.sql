-- PostgreSQL twin of migrations/0060_attempt_series.sql.
ALTER TABLE delivery_attempt ADD COLUMN series_start integer NOT NULL DEFAULT 1;
UPDATE delivery_attempt SET series_start = (SELECT d.series_start FROM delivery d WHERE d.id = delivery_attempt.delivery_id)
  WHERE attempt >= (SELECT d.series_start FROM delivery d WHERE d.id = delivery_attempt.delivery_id);
