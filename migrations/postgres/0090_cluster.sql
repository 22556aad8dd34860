-- PostgreSQL twin of migrations/0090_cluster.sql: the state several instances share.

-- Requests counted per limit (`name`: keyed, public, login…) and per key (an API key's id, a
-- client address, an account), in buckets of a sixtieth of the limit's window, oldest first:
-- `counts[i]` requests, the last of them at `lasts[i]` (milliseconds). `expires_at`: when every
-- request counted has left the window (the row is then purged). Unlogged: counting a request
-- writes no WAL, so it waits for no disk (a limit is not data: after a crash of the database
-- server the counters start again from zero, and a standby does not have them).
CREATE UNLOGGED TABLE rate_limit (
  name       text NOT NULL,
  key        text NOT NULL,
  counts     integer[] NOT NULL,
  lasts      bigint[] NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (name, key)
);

-- The run of each scheduled task that runs once per period across the instances: the period it
-- is in (its start, in milliseconds), which instance claimed it, when, and when the run ended.
CREATE TABLE task_run (
  task        text PRIMARY KEY,
  period      bigint NOT NULL,
  holder      text NOT NULL,
  claimed_at  bigint NOT NULL,
  finished_at bigint
);

-- One request of `p_key` against the limit `p_name` (at most p_limit requests in any p_window
-- milliseconds), decided and counted under the row's lock: instances hitting the same key at once
-- queue on it, so the limit holds across them. A bucket counts until its last request has left
-- the window: when an older request of the bucket has already left, it still counts, so a
-- request may be refused up to a bucket early, never let through late. With p_count false it
-- only tells (a peek), counting and locking nothing. `used`: the requests in the window, this one
-- included when counted; `frees_at`: when the oldest bucket leaves it (p_now when none is left).
CREATE FUNCTION rate_limit_hit(p_name text, p_key text, p_now bigint, p_limit integer, p_window bigint, p_count boolean,
  OUT allowed boolean, OUT used integer, OUT frees_at bigint)
LANGUAGE plpgsql AS $$
DECLARE
  width constant bigint := greatest(p_window / 60, 1);
  v_counts integer[];
  v_lasts bigint[];
  n integer;
  first_kept integer := 1;
BEGIN
  IF p_count THEN
    INSERT INTO rate_limit (name, key, counts, lasts, expires_at) VALUES (p_name, p_key, '{}', '{}', 0)
      ON CONFLICT (name, key) DO NOTHING;
    SELECT r.counts, r.lasts INTO v_counts, v_lasts FROM rate_limit r WHERE r.name = p_name AND r.key = p_key FOR UPDATE;
  ELSE
    SELECT r.counts, r.lasts INTO v_counts, v_lasts FROM rate_limit r WHERE r.name = p_name AND r.key = p_key;
    IF NOT FOUND THEN
      v_counts := '{}';
      v_lasts := '{}';
    END IF;
  END IF;
  n := cardinality(v_lasts);
  -- The buckets whose last request has left the window (they are the oldest) are dropped.
  WHILE first_kept <= n AND v_lasts[first_kept] <= p_now - p_window LOOP
    first_kept := first_kept + 1;
  END LOOP;
  v_counts := v_counts[first_kept:n];
  v_lasts := v_lasts[first_kept:n];
  n := n - first_kept + 1;
  used := coalesce((SELECT sum(c) FROM unnest(v_counts) c), 0);
  allowed := used < p_limit;
  IF allowed AND p_count THEN
    -- The newest bucket takes the request while it is the current one, or ahead of it (the clock
    -- of the instance that wrote it runs ahead of this one's).
    IF n > 0 AND v_lasts[n] / width >= p_now / width THEN
      v_counts[n] := v_counts[n] + 1;
      v_lasts[n] := greatest(v_lasts[n], p_now);
    ELSE
      v_counts := v_counts || 1;
      v_lasts := v_lasts || p_now;
      n := n + 1;
    END IF;
    used := used + 1;
  END IF;
  frees_at := CASE WHEN n = 0 THEN p_now ELSE v_lasts[1] + p_window END;
  IF p_count THEN
    UPDATE rate_limit SET counts = v_counts, lasts = v_lasts, expires_at = CASE WHEN n = 0 THEN p_now ELSE v_lasts[n] + p_window END
      WHERE name = p_name AND key = p_key;
  END IF;
END
$$;
