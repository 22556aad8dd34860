-- The twin of migrations/0095_vote_address_by_server.sql: vote_address keyed by (server_id,
-- ip_key, created_at), the key every read uses, instead of a primary key on (vote_id, ip_key)
-- and vote_address_lookup beside it; its rows go with their server (votes are never deleted
-- alone), and the foreign key on vote_id goes.
ALTER TABLE vote_address DROP CONSTRAINT vote_address_vote_id_fkey;
ALTER TABLE vote_address DROP CONSTRAINT vote_address_pkey;
DROP INDEX vote_address_lookup;
ALTER TABLE vote_address ADD PRIMARY KEY (server_id, ip_key, created_at);
ALTER TABLE vote_address ADD FOREIGN KEY (server_id) REFERENCES server(id) ON DELETE CASCADE;
