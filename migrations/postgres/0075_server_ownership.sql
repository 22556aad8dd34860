-- PostgreSQL twin of migrations/0075_server_ownership.sql: the listing's ownership token, when it
-- was last read in the MOTD, and the address the listing claims (src/servers/listed.ts).
ALTER TABLE server ADD COLUMN verify_token text;
ALTER TABLE server ADD COLUMN verified_at bigint;

-- The same value as SQLite's virtual column: the host lower-cased in the "C" collation (ASCII
-- letters only, as SQLite's lower()) without a final dot, and the port or the edition's default.
-- PostgreSQL computes a generated column when the row is written (STORED).
ALTER TABLE server ADD COLUMN claim text COLLATE "C" GENERATED ALWAYS AS (
  rtrim(lower(host COLLATE "C"), '.') || ':' || (coalesce(port, CASE edition WHEN 'bedrock' THEN 19132 ELSE 25565 END))::text) STORED;
CREATE INDEX server_claim ON server(claim, verified_at);
