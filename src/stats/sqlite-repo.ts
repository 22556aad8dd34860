import type { Database } from 'bun:sqlite'
import { DAY, HOUR, type LastRound, type RawRow, type RollupRow, type Series, type StatsRepo } from './repo.ts'
import { addValue, encodeHistogram, mergeEncoded, type Histogram } from './sketch.ts'

export function sqliteStatsRepo(db: Database) {
  const upsertStatus = db.prepare(`INSERT INTO server_status (server_num, online, players_online, players_max, version, motd, motd_styled, latency_ms, error, last_ping_at)
    VALUES ($num, $online, $playersOnline, $playersMax, $version, $motd, $styled, $latencyMs, $error, $at)
    ON CONFLICT (server_num) DO UPDATE SET online = excluded.online, players_online = excluded.players_online,
      players_max = excluded.players_max, latency_ms = excluded.latency_ms, error = excluded.error, last_ping_at = excluded.last_ping_at,
      -- a server that is down keeps its last known version and MOTD for its page
      version = coalesce(excluded.version, version), motd = coalesce(excluded.motd, motd),
      motd_styled = coalesce(excluded.motd_styled, motd_styled)`)
  // Written only when the hash differs: an unchanged icon costs one index lookup per round.
  const putIcon = db.prepare(`INSERT INTO server_icon (server_num, png, hash, updated_at) VALUES ($num, $png, $hash, $at)
    ON CONFLICT (server_num) DO UPDATE SET png = excluded.png, hash = excluded.hash, updated_at = excluded.updated_at
    WHERE hash <> excluded.hash`)
  const dropIcon = db.prepare('DELETE FROM server_icon WHERE server_num = ?')
  const serverExists = db.prepare('SELECT 1 FROM server WHERE num = ? AND id = ? AND deleted_at IS NULL')

  const insertSample = db.prepare('INSERT OR IGNORE INTO ping_sample (server_num, t, players, up) VALUES (?, ?, ?, ?)')
  const bumpHourly = db.prepare(`INSERT INTO ping_hourly (server_num, t, samples, up, sum, min, max) VALUES ($num, $t, 1, $up, $v, $v, $v)
    ON CONFLICT (server_num, t) DO UPDATE SET samples = samples + 1, up = up + excluded.up, sum = sum + excluded.sum,
      min = min(min, excluded.min), max = max(max, excluded.max)`)
  const dailyHist = db.prepare('SELECT hist FROM ping_daily WHERE server_num = ? AND t = ?')
  const bumpDaily = db.prepare(`INSERT INTO ping_daily (server_num, t, samples, up, sum, min, max, hist) VALUES ($num, $t, 1, $up, $v, $v, $v, $hist)
    ON CONFLICT (server_num, t) DO UPDATE SET samples = samples + 1, up = up + excluded.up, sum = sum + excluded.sum,
      min = min(min, excluded.min), max = max(max, excluded.max), hist = excluded.hist`)

  const insertGlobal = db.prepare('INSERT OR IGNORE INTO global_sample (scope, t, players, servers, up) VALUES (?, ?, ?, ?, ?)')
  const bumpGlobalHourly = db.prepare(`INSERT INTO global_hourly (scope, t, rounds, servers, up, sum, min, max) VALUES ($scope, $t, 1, $servers, $up, $v, $v, $v)
    ON CONFLICT (scope, t) DO UPDATE SET rounds = rounds + 1, servers = servers + excluded.servers, up = up + excluded.up,
      sum = sum + excluded.sum, min = min(min, excluded.min), max = max(max, excluded.max)`)
  const globalDailyHist = db.prepare('SELECT hist FROM global_daily WHERE scope = ? AND t = ?')
  const bumpGlobalDaily = db.prepare(`INSERT INTO global_daily (scope, t, rounds, servers, up, sum, min, max, hist) VALUES ($scope, $t, 1, $servers, $up, $v, $v, $v, $hist)
    ON CONFLICT (scope, t) DO UPDATE SET rounds = rounds + 1, servers = servers + excluded.servers, up = up + excluded.up,
      sum = sum + excluded.sum, min = min(min, excluded.min), max = max(max, excluded.max), hist = excluded.hist`)

  // `= +?`: an ORDER BY served by the key after an equality on a bare parameter makes Bun 1.4.5's
  // SQLite prepare the statement again at every run (about 9 µs; see src/votes/sqlite-repo.ts).
  const serverRaw = db.prepare('SELECT t, players, 1, up FROM ping_sample WHERE server_num = +? AND t BETWEEN ? AND ? ORDER BY t')
  const serverHourly = db.prepare("SELECT t, samples, samples, up, sum, min, max, x'' FROM ping_hourly WHERE server_num = +? AND t BETWEEN ? AND ? ORDER BY t")
  const serverDaily = db.prepare('SELECT t, samples, samples, up, sum, min, max, hist FROM ping_daily WHERE server_num = +? AND t BETWEEN ? AND ? ORDER BY t')
  // Every value of a window as one JSON array: SQLite builds it in C and JSON.parse reads it at
  // native speed, several times faster than one JavaScript row per sample (30 days: 8,640 rows).
  const serverValues = db.prepare('SELECT json_group_array(players) AS v FROM ping_sample WHERE server_num = ? AND t BETWEEN ? AND ?')
  const globalRaw = db.prepare('SELECT t, players, servers, up FROM global_sample WHERE scope = +? AND t BETWEEN ? AND ? ORDER BY t')
  const globalHourly = db.prepare("SELECT t, rounds, servers, up, sum, min, max, x'' FROM global_hourly WHERE scope = +? AND t BETWEEN ? AND ? ORDER BY t")
  const globalDaily = db.prepare('SELECT t, rounds, servers, up, sum, min, max, hist FROM global_daily WHERE scope = +? AND t BETWEEN ? AND ? ORDER BY t')
  const globalValues = db.prepare('SELECT json_group_array(players) AS v FROM global_sample WHERE scope = ? AND t BETWEEN ? AND ?')

  // The reads of one series (a server's, or a global scope's) over a window [from, to].
  type Statement = ReturnType<Database['prepare']>
  const seriesOf = <K extends number | string>(raw: Statement, hourly: Statement, daily: Statement, values: Statement) => (key: K): Series => ({
    raw: (from, to) => raw.values(key, from, to) as RawRow[],
    hourly: (from, to) => hourly.values(key, from, to) as RollupRow[],
    daily: (from, to) => daily.values(key, from, to) as RollupRow[],
    values: (from, to) => Float64Array.from(JSON.parse((values.get(key, from, to) as { v: string }).v) as number[]),
  })
  const uptimeSince = db.prepare('SELECT count(*) AS n, coalesce(sum(up), 0) AS up FROM ping_sample WHERE server_num = ? AND t > ?')

  const purgeSamples = db.prepare('DELETE FROM ping_sample WHERE t >= ? AND t < ?')
  const purgeGlobal = db.prepare('DELETE FROM global_sample WHERE t >= ? AND t < ?')
  const putLastRound = db.prepare(`INSERT OR REPLACE INTO last_ping_round (id, t, servers, up, duration_ms, finished_at)
    VALUES (1, $t, $servers, $up, $durationMs, $finishedAt)`)
  const lastRound = db.prepare('SELECT t, servers, up, duration_ms AS durationMs, finished_at AS finishedAt FROM last_ping_round')
  const oldestSample = db.prepare('SELECT min(t) AS t FROM (SELECT min(t) AS t FROM ping_sample UNION ALL SELECT min(t) FROM global_sample)')

  // Read-modify-write of a daily row's histogram; the caller holds the write transaction.
  const withValue = (old: { hist: Uint8Array } | null, value: number) => {
    const h: Histogram = []
    if (old) mergeEncoded(h, old.hist)
    addValue(h, value)
    return encodeHistogram(h)
  }

  return {
    recordMeasurement(t, m) {
      if (!serverExists.get(m.serverNum, m.serverId)) return false
      const s = m.status
      upsertStatus.run({
        num: m.serverNum, online: s.online ? 1 : 0, playersOnline: s.playersOnline, playersMax: s.playersMax,
        version: s.version, motd: s.motd, styled: s.styledMotd && JSON.stringify(s.styledMotd), latencyMs: s.latencyMs, error: s.error, at: m.at,
      })
      const players = s.online ? s.playersOnline : 0
      const up = s.online ? 1 : 0
      if (insertSample.run(m.serverNum, t, players, up).changes === 0) return false
      bumpHourly.run({ num: m.serverNum, t: t - (t % HOUR), up, v: players })
      const day = t - (t % DAY)
      bumpDaily.run({ num: m.serverNum, t: day, up, v: players, hist: withValue(dailyHist.get(m.serverNum, day) as { hist: Uint8Array } | null, players) })
      return true
    },

    recordIcon(serverNum, icon, at) {
      if (!icon) return dropIcon.run(serverNum).changes > 0
      return putIcon.run({ num: serverNum, png: icon.png, hash: icon.hash, at }).changes > 0
    },

    recordGlobal(scope, t, { players, servers, up }) {
      if (insertGlobal.run(scope, t, players, servers, up).changes === 0) return
      bumpGlobalHourly.run({ scope, t: t - (t % HOUR), servers, up, v: players })
      const day = t - (t % DAY)
      bumpGlobalDaily.run({ scope, t: day, servers, up, v: players, hist: withValue(globalDailyHist.get(scope, day) as { hist: Uint8Array } | null, players) })
    },

    serverSeries: seriesOf<number>(serverRaw, serverHourly, serverDaily, serverValues),
    globalSeries: seriesOf<string>(globalRaw, globalHourly, globalDaily, globalValues),

    uptimeSince(serverNum, since) {
      const r = uptimeSince.get(serverNum, since) as { n: number; up: number }
      return r.n ? r.up / r.n : null
    },

    oldestSample: () => (oldestSample.get() as { t: number | null }).t,
    purgeSamples: (from, to) => purgeSamples.run(from, to).changes + purgeGlobal.run(from, to).changes,
    recordLastRound: (r) => { putLastRound.run({ ...r }) },
    lastRound: () => lastRound.get() as LastRound | null,
  } satisfies StatsRepo
}
