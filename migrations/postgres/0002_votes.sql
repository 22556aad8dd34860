-- PostgreSQL twin of migrations/0002_votes.sql. created_at is unique and strictly increasing per
-- server: the vote transaction holds the server's advisory lock while it reads the last one.
CREATE TABLE vote (
  id         text PRIMARY KEY,
  server_id  text NOT NULL REFERENCES server(id) ON DELETE CASCADE,
  pseudo     text NOT NULL,
  pseudo_key text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  claimed_at bigint,
  UNIQUE (server_id, created_at)
);
CREATE INDEX vote_pseudo ON vote(server_id, pseudo_key, created_at);

CREATE TABLE vote_address (
  vote_id    text NOT NULL REFERENCES vote(id) ON DELETE CASCADE,
  server_id  text NOT NULL,
  ip_key     text COLLATE "C" NOT NULL,
  address    text NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (vote_id, ip_key)
);
CREATE INDEX vote_address_lookup ON vote_address(server_id, ip_key, created_at);

CREATE TABLE server_month (
  server_id    text NOT NULL REFERENCES server(id) ON DELETE CASCADE,
  month        text COLLATE "C" NOT NULL,
  votes        integer NOT NULL,
  last_vote_at bigint NOT NULL,
  PRIMARY KEY (server_id, month)
);
CREATE INDEX server_month_rank ON server_month(month, votes DESC, last_vote_at);

CREATE TABLE voter_month (
  server_id    text NOT NULL REFERENCES server(id) ON DELETE CASCADE,
  month        text COLLATE "C" NOT NULL,
  pseudo_key   text COLLATE "C" NOT NULL,
  pseudo       text NOT NULL,
  votes        integer NOT NULL,
  last_vote_at bigint NOT NULL,
  PRIMARY KEY (server_id, month, pseudo_key)
);
CREATE INDEX voter_month_top ON voter_month(server_id, month, votes DESC, last_vote_at);
