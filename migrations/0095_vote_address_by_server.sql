-- vote_address as ONE B-tree, keyed the way every read looks it up: (server_id, ip_key,
-- created_at). It was two (its primary key (vote_id, ip_key) and vote_address_lookup), and an
-- index B-tree takes three or four pages into every commit that adds to it (SQLite rebalances
-- index leaves with their siblings), so each vote paid both in its commit. The key is still unique
-- per vote and address: created_at is unique per server (UNIQUE (server_id, created_at) on vote),
-- so (server_id, created_at) names one vote. A vote's addresses are removed with its server
-- (votes are never deleted alone); the foreign key on vote_id, whose check on every deleted vote
-- would now walk the whole table, goes.
CREATE TABLE vote_address_by_server (
  vote_id    TEXT NOT NULL,
  server_id  TEXT NOT NULL REFERENCES server(id) ON DELETE CASCADE,
  ip_key     TEXT NOT NULL,
  address    TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (server_id, ip_key, created_at)
) WITHOUT ROWID;
INSERT INTO vote_address_by_server (vote_id, server_id, ip_key, address, created_at)
  SELECT vote_id, server_id, ip_key, address, created_at FROM vote_address;
DROP TABLE vote_address;
ALTER TABLE vote_address_by_server RENAME TO vote_address;
