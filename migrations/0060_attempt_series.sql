-- The Deliveries tab shows "attempt n of 8" counted within a series (a redeliver starts a new
-- series, whose attempt numbers go on from the last one), so each attempt records the attempt
-- number that began its series. Attempts made before this column: those at or after their
-- delivery's current series start belong to that series, earlier ones to the first.
ALTER TABLE delivery_attempt ADD COLUMN series_start INTEGER NOT NULL DEFAULT 1;
UPDATE delivery_attempt SET series_start = (SELECT d.series_start FROM delivery d WHERE d.id = delivery_attempt.delivery_id)
  WHERE attempt >= (SELECT d.series_start FROM delivery d WHERE d.id = delivery_attempt.delivery_id);
