-- Deleting a server no longer removes its rows in one statement: ON DELETE CASCADE removed all its
-- votes, their addresses, monthly counters and deliveries in one transaction, which held the
-- write lock for as long as it took (seconds for a server with millions of votes; every vote,
-- plugin check and login of the site waited, some gave up). Now the deletion marks the row
-- (deleted_at), takes it off every list and frees its slug at once; a scheduled task then removes
-- what hangs on it a few thousand rows per transaction, and the row last (src/servers/purge.ts).
-- An account deleted with its servers is marked the same way and removed once they are.
ALTER TABLE server ADD COLUMN deleted_at INTEGER;
ALTER TABLE user ADD COLUMN deleted_at INTEGER;
CREATE INDEX server_purge_due ON server(deleted_at) WHERE deleted_at IS NOT NULL;
CREATE INDEX user_purge_due ON user(deleted_at) WHERE deleted_at IS NOT NULL;
