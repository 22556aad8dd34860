-- PostgreSQL twin of migrations/0093_listing_version.sql: a counter of the changes to what the
-- public pages show of the listings, bumped by the statements that change them, whichever
-- instance or tool runs them. One update per statement; the row's lock is held to the end of the
-- writing transaction, which only listing changes take (never a vote or a ping).
CREATE TABLE listing_version (
  id smallint PRIMARY KEY CHECK (id = 1),
  n  bigint NOT NULL
);
INSERT INTO listing_version (id, n) VALUES (1, 0);

CREATE FUNCTION listing_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE listing_version SET n = n + 1;
  RETURN NULL;
END $$;

CREATE TRIGGER server_changed AFTER INSERT OR UPDATE OR DELETE ON server FOR EACH STATEMENT EXECUTE FUNCTION listing_changed();
CREATE TRIGGER server_mode_changed AFTER INSERT OR UPDATE OR DELETE ON server_mode FOR EACH STATEMENT EXECUTE FUNCTION listing_changed();
CREATE TRIGGER server_icon_changed AFTER INSERT OR UPDATE OR DELETE ON server_icon FOR EACH STATEMENT EXECUTE FUNCTION listing_changed();
CREATE TRIGGER server_banner_changed AFTER INSERT OR UPDATE OR DELETE ON server_banner FOR EACH STATEMENT EXECUTE FUNCTION listing_changed();
CREATE TRIGGER user_disabled AFTER UPDATE OF disabled_at ON "user" FOR EACH STATEMENT EXECUTE FUNCTION listing_changed();
CREATE TRIGGER user_deleted AFTER DELETE ON "user" FOR EACH STATEMENT EXECUTE FUNCTION listing_changed();
