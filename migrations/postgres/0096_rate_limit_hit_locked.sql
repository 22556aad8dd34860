-- rate_limit_hit (0090_cluster.sql) counted a request under its counter row's lock, read by a
-- SELECT … FOR UPDATE after an INSERT … ON CONFLICT DO NOTHING had made sure the row was there.
-- The once-a-minute sweep may delete that row in between (all its requests gone from the
-- window): the SELECT, granted the lock once the sweep had committed, found no row, and the
-- request was let through without being counted anywhere. Now a counter that is not there when
-- its lock is asked for is written again and read again under the new row's lock, until the read
-- finds one: the request is always counted. The rest of the function is unchanged.
CREATE OR REPLACE FUNCTION rate_limit_hit(p_name text, p_key text, p_now bigint, p_limit integer, p_window bigint, p_count boolean,
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
    -- Each statement of the loop reads with a snapshot of its own (READ COMMITTED): the INSERT
    -- sees the sweep's delete committed, and the SELECT the row just written, ours or that of
    -- another instance counting the same key (which the INSERT then waited for).
    LOOP
      SELECT r.counts, r.lasts INTO v_counts, v_lasts FROM rate_limit r WHERE r.name = p_name AND r.key = p_key FOR UPDATE;
      EXIT WHEN FOUND;
      INSERT INTO rate_limit (name, key, counts, lasts, expires_at) VALUES (p_name, p_key, '{}', '{}', 0)
        ON CONFLICT (name, key) DO NOTHING;
    END LOOP;
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
