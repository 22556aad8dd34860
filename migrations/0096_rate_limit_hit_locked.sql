-- The twin of migrations/postgres/0096_rate_limit_hit_locked.sql, which mends the counting of the
-- limits shared by the instances of a PostgreSQL site. One SQLite process counts its limits in
-- memory (rate_limit stays empty here): nothing to change. SQLite refuses a migration without a
-- statement, hence this one, which does nothing.
SELECT 1;
