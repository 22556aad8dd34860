-- Daily rollups also keep the distribution of the values they summarise (a compact histogram,
-- see src/stats/sketch.ts), so the median of ranges served from daily rollups (90d, 1y, all)
-- stays within 1 % of the exact median after the raw samples are gone.
-- ping_daily: players per measurement; global_daily: players summed per ping round.
ALTER TABLE ping_daily ADD COLUMN hist BLOB NOT NULL DEFAULT x'';
ALTER TABLE global_daily ADD COLUMN hist BLOB NOT NULL DEFAULT x'';
