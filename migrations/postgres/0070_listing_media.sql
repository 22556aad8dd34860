-- PostgreSQL twin of migrations/0070_listing_media.sql: the styled MOTD, the server icon and the
-- owner's banner. An image of more than about 2 KB is kept out of line (TOAST): the pages, which
-- read only the hash, never load it.
ALTER TABLE server_status ADD COLUMN motd_styled text;

CREATE TABLE server_icon (
  server_num integer PRIMARY KEY REFERENCES server(num) ON DELETE CASCADE,
  hash       text NOT NULL,
  updated_at bigint NOT NULL,
  png        bytea NOT NULL
);

CREATE TABLE server_banner (
  server_num integer PRIMARY KEY REFERENCES server(num) ON DELETE CASCADE,
  hash       text NOT NULL,
  type       text NOT NULL CHECK (type IN ('image/png', 'image/gif', 'image/jpeg', 'image/webp')),
  width      integer NOT NULL,
  height     integer NOT NULL,
  updated_at bigint NOT NULL,
  bytes      bytea NOT NULL
);
