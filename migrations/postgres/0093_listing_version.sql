-- PostgreSQL twin of migrations/0093_listing_version.sql: a counter of the changes to what the
-- public pages show of the listings, bumped by the transactions that change them, whichever
-- instance or tool runs them. The triggers are deferred to the commit, so the counter's row is the
-- last lock a transaction takes: two transactions changing listings wait for each other only there,
-- never in a cycle with the rows they change. Votes and pings never take it.
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

CREATE CONSTRAINT TRIGGER server_changed AFTER INSERT OR UPDATE OR DELETE ON server
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_changed();
CREATE CONSTRAINT TRIGGER server_mode_changed AFTER INSERT OR UPDATE OR DELETE ON server_mode
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_changed();
CREATE CONSTRAINT TRIGGER server_icon_changed AFTER INSERT OR UPDATE OR DELETE ON server_icon
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_changed();
CREATE CONSTRAINT TRIGGER server_banner_changed AFTER INSERT OR UPDATE OR DELETE ON server_banner
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_changed();
CREATE CONSTRAINT TRIGGER user_disabled AFTER UPDATE OF disabled_at ON "user"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_changed();
CREATE CONSTRAINT TRIGGER user_deleted AFTER DELETE ON "user"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION listing_changed();
