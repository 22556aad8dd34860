-- PostgreSQL twin of migrations/0040_delivery_series.sql.
ALTER TABLE delivery ADD COLUMN series_start integer NOT NULL DEFAULT 1;
