-- A counter of the changes to what the public pages show of the listings: a server added, edited,
-- hidden, verified or deleted, its modes, icon or banner changed, its owner's account disabled,
-- enabled or deleted. The pages keep what they rendered while it stays the same (and for a few
-- seconds at most: votes and pings do not count here), so whatever writes these tables (the
-- site, the command line, another instance, a hand-written statement) shows on the next page.
CREATE TABLE listing_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n  INTEGER NOT NULL
);
INSERT INTO listing_version (id, n) VALUES (1, 0);

CREATE TRIGGER server_listed AFTER INSERT ON server BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER server_edited AFTER UPDATE ON server BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER server_deleted AFTER DELETE ON server BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER server_mode_added AFTER INSERT ON server_mode BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER server_mode_removed AFTER DELETE ON server_mode BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER server_icon_added AFTER INSERT ON server_icon BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER server_icon_changed AFTER UPDATE ON server_icon BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER server_icon_removed AFTER DELETE ON server_icon BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER server_banner_added AFTER INSERT ON server_banner BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER server_banner_changed AFTER UPDATE ON server_banner BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER server_banner_removed AFTER DELETE ON server_banner BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER user_disabled AFTER UPDATE OF disabled_at ON user BEGIN UPDATE listing_version SET n = n + 1; END;
CREATE TRIGGER user_deleted AFTER DELETE ON user BEGIN UPDATE listing_version SET n = n + 1; END;
