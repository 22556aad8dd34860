-- PostgreSQL twin of migrations/0076_discord.sql: the Discord webhook, a third delivery channel,
-- and the attempts Discord asked to wait (its 429), which the retry schedule does not count.
-- PostgreSQL changes a CHECK and adds a column in place: no table is built again.
CREATE TABLE discord (
  server_id  text PRIMARY KEY REFERENCES server(id) ON DELETE CASCADE,
  url        text NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);

ALTER TABLE delivery DROP CONSTRAINT delivery_channel_check;
ALTER TABLE delivery ADD CONSTRAINT delivery_channel_check CHECK (channel IN ('votifier', 'webhook', 'discord'));

ALTER TABLE delivery_attempt ADD COLUMN rate_limited smallint NOT NULL DEFAULT 0 CHECK (rate_limited IN (0, 1));
