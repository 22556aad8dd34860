-- PostgreSQL twin of migrations/0050_stats_median.sql: the daily rollups' histograms (bytea).
ALTER TABLE ping_daily ADD COLUMN hist bytea NOT NULL DEFAULT '\x';
ALTER TABLE global_daily ADD COLUMN hist bytea NOT NULL DEFAULT '\x';
