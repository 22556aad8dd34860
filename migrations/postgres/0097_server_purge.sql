-- PostgreSQL twin of migrations/0097_server_purge.sql: a deleted server (and an account deleted
-- with its servers) is marked, off every list at once, and removed a few thousand rows per
-- transaction by a scheduled task (src/servers/purge.ts) instead of by one cascading DELETE.
ALTER TABLE server ADD COLUMN deleted_at bigint;
ALTER TABLE "user" ADD COLUMN deleted_at bigint;
CREATE INDEX server_purge_due ON server(deleted_at) WHERE deleted_at IS NOT NULL;
CREATE INDEX user_purge_due ON "user"(deleted_at) WHERE deleted_at IS NOT NULL;
