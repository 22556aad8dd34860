import { exec, row, rows, type Pg } from '../db/postgres-client.ts'
import { DAY, HOUR, type LastRound, type RawRow, type RollupRow, type Series, type StatsRepo } from './repo.ts'
import { addValue, encodeHistogram, mergeEncoded, type Histogram } from './sketch.ts'

const UPSERT_STATUS = `INSERT INTO server_status (server_num, online, players_online, players_max, version, motd, motd_styled, latency_ms, error, last_ping_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
  ON CONFLICT (server_num) DO UPDATE SET online = excluded.online, players_online = excluded.players_online,
    players_max = excluded.players_max, latency_ms = excluded.latency_ms, error = excluded.error, last_ping_at = excluded.last_ping_at,
    -- a server that is down keeps its last known version and MOTD for its page
    version = coalesce(excluded.version, server_status.version), motd = coalesce(excluded.motd, server_status.motd),
    motd_styled = coalesce(excluded.motd_styled, server_status.motd_styled)`
// Written only when the hash differs: an unchanged icon costs one index lookup per round.
const PUT_ICON = `INSERT INTO server_icon (server_num, png, hash, updated_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (server_num) DO UPDATE SET png = excluded.png, hash = excluded.hash, updated_at = excluded.updated_at
  WHERE server_icon.hash <> excluded.hash`
const PUT_LAST_ROUND = `INSERT INTO last_ping_round (id, t, servers, up, duration_ms, finished_at) VALUES (1, $1, $2, $3, $4, $5)
  ON CONFLICT (id) DO UPDATE SET t = excluded.t, servers = excluded.servers, up = excluded.up, duration_ms = excluded.duration_ms,
    finished_at = excluded.finished_at`
const BUMP_HOURLY = `INSERT INTO ping_hourly AS r (server_num, t, samples, up, sum, min, max) VALUES ($1, $2, 1, $3, $4, $4, $4)
  ON CONFLICT (server_num, t) DO UPDATE SET samples = r.samples + 1, up = r.up + excluded.up, sum = r.sum + excluded.sum,
    min = least(r.min, excluded.min), max = greatest(r.max, excluded.max)`
const BUMP_DAILY = `INSERT INTO ping_daily AS r (server_num, t, samples, up, sum, min, max, hist) VALUES ($1, $2, 1, $3, $4, $4, $4, $5)
  ON CONFLICT (server_num, t) DO UPDATE SET samples = r.samples + 1, up = r.up + excluded.up, sum = r.sum + excluded.sum,
    min = least(r.min, excluded.min), max = greatest(r.max, excluded.max), hist = excluded.hist`
const BUMP_GLOBAL_HOURLY = `INSERT INTO global_hourly AS r (scope, t, rounds, servers, up, sum, min, max) VALUES ($1, $2, 1, $3, $4, $5, $5, $5)
  ON CONFLICT (scope, t) DO UPDATE SET rounds = r.rounds + 1, servers = r.servers + excluded.servers, up = r.up + excluded.up,
    sum = r.sum + excluded.sum, min = least(r.min, excluded.min), max = greatest(r.max, excluded.max)`
const BUMP_GLOBAL_DAILY = `INSERT INTO global_daily AS r (scope, t, rounds, servers, up, sum, min, max, hist) VALUES ($1, $2, 1, $3, $4, $5, $5, $5, $6)
  ON CONFLICT (scope, t) DO UPDATE SET rounds = r.rounds + 1, servers = r.servers + excluded.servers, up = r.up + excluded.up,
    sum = r.sum + excluded.sum, min = least(r.min, excluded.min), max = greatest(r.max, excluded.max), hist = excluded.hist`

// The reads of one series over a window [$2, $3] of the key $1, as objects turned into the rows
// the history code reads (src/stats/repo.ts).
interface Reads { raw: string; hourly: string; daily: string; values: string }
const SERVER: Reads = {
  raw: 'SELECT t, players AS v, 1 AS n, up FROM ping_sample WHERE server_num = $1 AND t BETWEEN $2 AND $3 ORDER BY t',
  hourly: 'SELECT t, samples AS v, samples AS n, up, sum, min, max FROM ping_hourly WHERE server_num = $1 AND t BETWEEN $2 AND $3 ORDER BY t',
  daily: 'SELECT t, samples AS v, samples AS n, up, sum, min, max, hist FROM ping_daily WHERE server_num = $1 AND t BETWEEN $2 AND $3 ORDER BY t',
  values: 'SELECT coalesce(array_agg(players::float8), \'{}\') AS v FROM ping_sample WHERE server_num = $1 AND t BETWEEN $2 AND $3',
}
const GLOBAL: Reads = {
  raw: 'SELECT t, players AS v, servers AS n, up FROM global_sample WHERE scope = $1 AND t BETWEEN $2 AND $3 ORDER BY t',
  hourly: 'SELECT t, rounds AS v, servers AS n, up, sum, min, max FROM global_hourly WHERE scope = $1 AND t BETWEEN $2 AND $3 ORDER BY t',
  daily: 'SELECT t, rounds AS v, servers AS n, up, sum, min, max, hist FROM global_daily WHERE scope = $1 AND t BETWEEN $2 AND $3 ORDER BY t',
  values: 'SELECT coalesce(array_agg(players::float8), \'{}\') AS v FROM global_sample WHERE scope = $1 AND t BETWEEN $2 AND $3',
}

interface Rollup { t: number; v: number; n: number; up: number; sum: number; min: number; max: number; hist?: Uint8Array }
const NO_HIST = new Uint8Array(0)

// A daily row's histogram with one more value; the row (when there is one) is locked by the read.
const withValue = (old: { hist: Uint8Array } | null, value: number) => {
  const h: Histogram = []
  if (old) mergeEncoded(h, old.hist)
  addValue(h, value)
  return encodeHistogram(h)
}

export function postgresStatsRepo(pg: Pg) {
  const seriesOf = (q: Reads) => (key: number | string): Series => ({
    raw: async (from, to) => (await rows<{ t: number; v: number; n: number; up: number }>(pg, q.raw, [key, from, to])).map((r): RawRow => [r.t, r.v, r.n, r.up]),
    hourly: async (from, to) => (await rows<Rollup>(pg, q.hourly, [key, from, to])).map((r): RollupRow => [r.t, r.v, r.n, r.up, r.sum, r.min, r.max, NO_HIST]),
    daily: async (from, to) => (await rows<Rollup>(pg, q.daily, [key, from, to])).map((r): RollupRow => [r.t, r.v, r.n, r.up, r.sum, r.min, r.max, r.hist!]),
    values: async (from, to) => Float64Array.from((await row<{ v: number[] }>(pg, q.values, [key, from, to]))!.v),
  })

  return {
    async recordMeasurement(t, m) {
      // The server's row is locked as its measurement's rows will lock it (their foreign keys): a
      // deletion not yet committed is waited for, and the server then found gone, instead of the
      // inserts below failing on their foreign keys once it commits, and the whole round with them.
      if (!(await row(pg, 'SELECT 1 FROM server WHERE num = $1 AND id = $2 AND deleted_at IS NULL FOR KEY SHARE', [m.serverNum, m.serverId]))) return false
      const s = m.status
      await exec(pg, UPSERT_STATUS, [
        m.serverNum, s.online ? 1 : 0, s.playersOnline, s.playersMax, s.version, s.motd, s.styledMotd && JSON.stringify(s.styledMotd), s.latencyMs, s.error, m.at,
      ])
      const players = s.online ? s.playersOnline : 0
      const up = s.online ? 1 : 0
      if ((await exec(pg, 'INSERT INTO ping_sample (server_num, t, players, up) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [m.serverNum, t, players, up])) === 0) return false
      await exec(pg, BUMP_HOURLY, [m.serverNum, t - (t % HOUR), up, players])
      const day = t - (t % DAY)
      const old = await row<{ hist: Uint8Array }>(pg, 'SELECT hist FROM ping_daily WHERE server_num = $1 AND t = $2 FOR UPDATE', [m.serverNum, day])
      await exec(pg, BUMP_DAILY, [m.serverNum, day, up, players, withValue(old, players)])
      return true
    },

    async recordIcon(serverNum, icon, at) {
      if (!icon) return (await exec(pg, 'DELETE FROM server_icon WHERE server_num = $1', [serverNum])) > 0
      return (await exec(pg, PUT_ICON, [serverNum, icon.png, icon.hash, at])) > 0
    },

    async recordGlobal(scope, t, { players, servers, up }) {
      if ((await exec(pg, 'INSERT INTO global_sample (scope, t, players, servers, up) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [scope, t, players, servers, up])) === 0) return
      await exec(pg, BUMP_GLOBAL_HOURLY, [scope, t - (t % HOUR), servers, up, players])
      const day = t - (t % DAY)
      const old = await row<{ hist: Uint8Array }>(pg, 'SELECT hist FROM global_daily WHERE scope = $1 AND t = $2 FOR UPDATE', [scope, day])
      await exec(pg, BUMP_GLOBAL_DAILY, [scope, day, servers, up, players, withValue(old, players)])
    },

    serverSeries: seriesOf(SERVER),
    globalSeries: seriesOf(GLOBAL),

    async uptimeSince(serverNum, since) {
      const r = (await row<{ n: number; up: number }>(pg, 'SELECT count(*) AS n, coalesce(sum(up), 0) AS up FROM ping_sample WHERE server_num = $1 AND t > $2', [serverNum, since]))!
      return r.n ? r.up / r.n : null
    },

    oldestSample: async () => (await row<{ t: number | null }>(pg, 'SELECT least((SELECT min(t) FROM ping_sample), (SELECT min(t) FROM global_sample)) AS t'))!.t,
    purgeSamples: async (from, to) => (await exec(pg, 'DELETE FROM ping_sample WHERE t >= $1 AND t < $2', [from, to]))
      + (await exec(pg, 'DELETE FROM global_sample WHERE t >= $1 AND t < $2', [from, to])),
    async recordLastRound(r) {
      await exec(pg, PUT_LAST_ROUND, [r.t, r.servers, r.up, r.durationMs, r.finishedAt])
    },
    lastRound: () => row<LastRound>(pg, 'SELECT t, servers, up, duration_ms AS "durationMs", finished_at AS "finishedAt" FROM last_ping_round'),
  } satisfies StatsRepo
}
