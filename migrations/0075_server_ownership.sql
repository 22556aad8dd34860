-- Proven ownership of a listed server: the owner puts the listing's token anywhere in the
-- server's MOTD and the site reads it with a ping (src/ownership).
ALTER TABLE server ADD COLUMN verify_token TEXT;    -- 'vl-' + 12 of 0-9a-v, made when first asked for
ALTER TABLE server ADD COLUMN verified_at INTEGER;  -- when the token was last read in the MOTD; NULL: not verified

-- The address a listing claims: the host as written (lower case, without a final dot) and the
-- port, the edition's default when none is given. A listing of another account that is verified
-- for the same address keeps it: the others are off the public site (src/servers/sqlite-listed.ts).
ALTER TABLE server ADD COLUMN claim TEXT GENERATED ALWAYS AS (
  rtrim(lower(host), '.') || ':' || coalesce(port, CASE edition WHEN 'bedrock' THEN 19132 ELSE 25565 END)) VIRTUAL;
CREATE INDEX server_claim ON server(claim, verified_at);
