-- Votes and the per-month counters that ranks, top voters and totals are read from.

-- created_at is unique and strictly increasing per server (a vote in the same millisecond as the
-- previous one takes the next millisecond), so `since`/`next` paging never skips or repeats.
CREATE TABLE vote (
  id         TEXT PRIMARY KEY,
  server_id  TEXT NOT NULL REFERENCES server(id) ON DELETE CASCADE,
  pseudo     TEXT NOT NULL,                    -- as typed
  pseudo_key TEXT NOT NULL,                    -- lower-cased
  created_at INTEGER NOT NULL,
  claimed_at INTEGER,
  UNIQUE (server_id, created_at)
);
CREATE INDEX vote_pseudo ON vote(server_id, pseudo_key, created_at);

-- Every address recorded for a vote (the connecting one, plus the other family when dual-stack
-- capture is configured). ip_key is the match key: "4:a.b.c.d" or "6:<first 64 bits>".
CREATE TABLE vote_address (
  vote_id    TEXT NOT NULL REFERENCES vote(id) ON DELETE CASCADE,
  server_id  TEXT NOT NULL,
  ip_key     TEXT NOT NULL,
  address    TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (vote_id, ip_key)
) WITHOUT ROWID;
CREATE INDEX vote_address_lookup ON vote_address(server_id, ip_key, created_at);

-- month is the UTC calendar month 'YYYY-MM' of the vote.
CREATE TABLE server_month (
  server_id    TEXT NOT NULL REFERENCES server(id) ON DELETE CASCADE,
  month        TEXT NOT NULL,
  votes        INTEGER NOT NULL,
  last_vote_at INTEGER NOT NULL,
  PRIMARY KEY (server_id, month)
) WITHOUT ROWID;
CREATE INDEX server_month_rank ON server_month(month, votes DESC, last_vote_at);

CREATE TABLE voter_month (
  server_id    TEXT NOT NULL REFERENCES server(id) ON DELETE CASCADE,
  month        TEXT NOT NULL,
  pseudo_key   TEXT NOT NULL,
  pseudo       TEXT NOT NULL,                  -- as most recently typed
  votes        INTEGER NOT NULL,
  last_vote_at INTEGER NOT NULL,
  PRIMARY KEY (server_id, month, pseudo_key)
) WITHOUT ROWID;
CREATE INDEX voter_month_top ON voter_month(server_id, month, votes DESC, last_vote_at);
