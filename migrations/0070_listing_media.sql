-- What the listing shows of a server beyond its words: the MOTD as the game shows it, the icon
-- its status ping sends, and the banner its owner uploads.

-- The MOTD of the last answer as styled text spans (JSON, src/motd/format.ts); `motd` keeps the
-- plain text. Kept while the server is down, as `motd` is.
ALTER TABLE server_status ADD COLUMN motd_styled TEXT;

-- The 64×64 PNG favicon of the last Java status answer that had a valid one; `hash` is the
-- SHA-256 (hex) of `png`, compared so that an unchanged icon is never written again.
-- In both tables the image comes last: the pages read only the hash, which then stays on the
-- row's own page instead of behind the image's overflow pages.
CREATE TABLE server_icon (
  server_num INTEGER PRIMARY KEY REFERENCES server(num) ON DELETE CASCADE,
  hash       TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  png        BLOB NOT NULL
);

-- The owner's 468×60 banner (at most 1 MiB); `type` and the size were read from its own bytes.
CREATE TABLE server_banner (
  server_num INTEGER PRIMARY KEY REFERENCES server(num) ON DELETE CASCADE,
  hash       TEXT NOT NULL,
  type       TEXT NOT NULL CHECK (type IN ('image/png', 'image/gif', 'image/jpeg', 'image/webp')),
  width      INTEGER NOT NULL,
  height     INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  bytes      BLOB NOT NULL
);
