// History and global statistics over one year of 5-minute samples for 1,000 servers, generated
// straight into the tables as retention leaves them: raw samples for the last 35 days, hourly and
// daily rollups (with their median histograms) for the whole year, the global series for every
// scope. Timed through the whole app (routing, validation, JSON); baseline: reading the same rows
// bare from SQLite, and the health route (the framework's floor).
import { statSync } from 'node:fs'
import { scopesOfServer, rangeWindow, RANGES } from '../../src/stats/history.ts'
import { DAY, HOUR, type Series } from '../../src/stats/repo.ts'
import { RANGE_NAMES } from '../../src/stats/schema.ts'
import { addValue, encodeHistogram, type Histogram } from '../../src/stats/sketch.ts'
import { call, cleanupTemp, testApp, testRuntime } from '../helpers.ts'
import { fmt, report, summarize, timeEach } from './lib.ts'

const SERVERS = 1000
const FIVE = 300_000
const NOW = Date.UTC(2026, 10, 22, 14, 37, 21)
const START = NOW - (NOW % DAY) - 364 * DAY
const RAW_FROM = NOW - 35 * DAY
const ROUNDS = Math.floor((NOW - START) / FIVE) + 1

const rt = testRuntime({ limits: { public_per_minute: 1_000_000 } }, NOW)
const db = rt.db
// Bulk load: rows arrive in primary-key order (server, then time); the secondary time indexes are
// built once afterwards instead of taking ~20 M scattered inserts.
db.run('PRAGMA synchronous = OFF')
db.run('PRAGMA cache_size = -262144')
db.run('DROP INDEX ping_sample_t')
db.run('DROP INDEX global_sample_t')
const modes = rt.config.servers.modes
const generated = performance.now()

db.run(`INSERT INTO user (id, email, email_key, password_hash, created_at) VALUES ('u', 'b@example.com', 'b@example.com', 'x', 0)`)
const servers = [...Array(SERVERS).keys()].map((i) => ({
  num: i + 1, edition: i % 10 < 7 ? 'java' : 'bedrock',
  modes: [...new Set([modes[i % modes.length], modes[(i * 7 + 3) % modes.length]])].slice(0, 1 + (i % 2)),
}))
db.transaction(() => {
  const ins = db.prepare(`INSERT INTO server (num, id, owner_id, slug, name, host, edition, created_at, updated_at) VALUES (?, ?, 'u', ?, ?, 'play.example.com', ?, ?, ?)`)
  const mode = db.prepare('INSERT INTO server_mode (server_id, mode) VALUES (?, ?)')
  for (const s of servers) {
    ins.run(s.num, `id${s.num}`, `server-${s.num}`, `Server ${s.num}`, s.edition, START - DAY, START - DAY)
    for (const m of s.modes) mode.run(`id${s.num}`, m)
  }
})()

const scopeNames = [...new Set(servers.flatMap((s) => scopesOfServer(s.edition, s.modes)))]
const scopeIndex = new Map(scopeNames.map((n, i) => [n, i]))
const gPlayers = scopeNames.map(() => new Int32Array(ROUNDS))
const gServers = scopeNames.map(() => new Uint16Array(ROUNDS))
const gUp = scopeNames.map(() => new Uint16Array(ROUNDS))
const diurnal = Float64Array.from({ length: 288 }, (_, k) => 0.6 + 0.4 * Math.sin((2 * Math.PI * (k - 100)) / 288))

const raw = db.prepare('INSERT INTO ping_sample (server_num, t, players, up) VALUES (?, ?, ?, ?)')
const hourly = db.prepare('INSERT INTO ping_hourly (server_num, t, samples, up, sum, min, max) VALUES (?, ?, ?, ?, ?, ?, ?)')
const daily = db.prepare('INSERT INTO ping_daily (server_num, t, samples, up, sum, min, max, hist) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')

// Rollup accumulator flushed at each hour or day boundary.
function rollup(write: (t: number, n: number, up: number, sum: number, min: number, max: number, h?: Histogram) => void, withHist: boolean) {
  let t = -1, n = 0, up = 0, sum = 0, min = 0, max = 0
  let h: Histogram = []
  return {
    add(slice: number, value: number, u: number) {
      if (slice !== t) {
        if (n) write(t, n, up, sum, min, max, h)
        t = slice; n = 0; up = 0; sum = 0; min = Infinity; max = -Infinity
        if (withHist) h = []
      }
      n++; up += u; sum += value
      if (value < min) min = value
      if (value > max) max = value
      if (withHist) addValue(h, value)
    },
    flush() { if (n) write(t, n, up, sum, min, max, h) },
  }
}

let seed = 12345
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
for (const s of servers) {
  const size = 2 + Math.floor(random() * random() * 400)
  const scopes = scopesOfServer(s.edition, s.modes).map((n) => scopeIndex.get(n)!)
  db.transaction(() => {
    const h = rollup((t, n, up, sum, min, max) => hourly.run(s.num, t, n, up, sum, min, max), false)
    const d = rollup((t, n, up, sum, min, max, hist) => daily.run(s.num, t, n, up, sum, min, max, encodeHistogram(hist!)), true)
    for (let r = 0; r < ROUNDS; r++) {
      const t = START + r * FIVE
      const up = random() < 0.98 ? 1 : 0
      const players = up ? Math.round(size * diurnal[r % 288] * (0.9 + 0.2 * random())) : 0
      if (t >= RAW_FROM) raw.run(s.num, t, players, up)
      h.add(t - (t % HOUR), players, up)
      d.add(t - (t % DAY), players, up)
      for (const i of scopes) { gPlayers[i][r] += players; gServers[i][r]++; gUp[i][r] += up }
    }
    h.flush()
    d.flush()
  })()
}

db.transaction(() => {
  const gRaw = db.prepare('INSERT INTO global_sample (scope, t, players, servers, up) VALUES (?, ?, ?, ?, ?)')
  const gHourly = db.prepare('INSERT INTO global_hourly (scope, t, rounds, servers, up, sum, min, max) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
  const gDaily = db.prepare('INSERT INTO global_daily (scope, t, rounds, servers, up, sum, min, max, hist) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
  scopeNames.forEach((scope, i) => {
    // For the global rollups, "up" and "servers" add up per round, so the accumulator's n counts rounds.
    let servers = 0
    const h = rollup((t, n, up, sum, min, max) => { gHourly.run(scope, t, n, servers, up, sum, min, max) }, false)
    const hourServers = new Map<number, number>()
    const dayServers = new Map<number, number>()
    const d = rollup((t, n, up, sum, min, max, hist) => gDaily.run(scope, t, n, dayServers.get(t)!, up, sum, min, max, encodeHistogram(hist!)), true)
    for (let r = 0; r < ROUNDS; r++) {
      const t = START + r * FIVE
      const n = gServers[i][r]
      if (t >= RAW_FROM) gRaw.run(scope, t, gPlayers[i][r], n, gUp[i][r])
      const hour = t - (t % HOUR)
      const day = t - (t % DAY)
      hourServers.set(hour, (hourServers.get(hour) ?? 0) + n)
      dayServers.set(day, (dayServers.get(day) ?? 0) + n)
      servers = hourServers.get(hour)!
      h.add(hour, gPlayers[i][r], gUp[i][r])
      d.add(day, gPlayers[i][r], gUp[i][r])
    }
    h.flush()
    d.flush()
  })
})()
db.run('CREATE INDEX ping_sample_t ON ping_sample(t)')
db.run('CREATE INDEX global_sample_t ON global_sample(t)')
db.run('PRAGMA synchronous = NORMAL')
db.run('PRAGMA cache_size = -2000')
db.run('ANALYZE')
const generationS = (performance.now() - generated) / 1000
const count = (table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
const sizeMb = statSync(rt.config.database.path).size / 2 ** 20

const app = await testApp(rt)
const N = 300
const pick = (i: number) => 1 + ((i * 7919) % SERVERS)
const filters = ['', 'edition=java', 'mode=survival', 'edition=bedrock&mode=skyblock']
const ms = (xs: number[]) => fmt(summarize(xs).p50, 2)

const floor = await timeEach(N, () => call(app, 'GET', '/api/v1/health').then((r) => r.text()))
const rows: Record<string, string | number>[] = []
for (const range of RANGE_NAMES) {
  const source = RANGES[range].source
  const { from, to } = rangeWindow(range, NOW)
  const server = await timeEach(N, (i) => call(app, 'GET', `/api/v1/servers/server-${pick(i)}/history?range=${range}`).then((r) => r.json()))
  // Bare: the rows the range is computed from, read without any processing.
  const bare = (s: Series) => (source === 'raw' ? s.raw(from, to) : source === 'hourly' ? [s.hourly(from, to), s.values(from, to)] : s.daily(from, to))
  const serverBare = await timeEach(N, (i) => bare(rt.store.stats.serverSeries(pick(i))))
  const global = await timeEach(N / 3, (i) => call(app, 'GET', `/api/v1/stats/global?range=${range}&${filters[i % 4]}`).then((r) => r.json()))
  const globalBare = await timeEach(N / 3, (i) => {
    const scope = ['all', 'edition:java', 'mode:survival', 'edition:bedrock/mode:skyblock'][i % 4]
    return bare(rt.store.stats.globalSeries(scope))
  })
  rows.push({
    range, source,
    'server p50 ms': ms(server), 'server bare rows p50 ms': ms(serverBare), 'server ratio': fmt(summarize(server).p50 / summarize(serverBare).p50),
    'global p50 ms': ms(global), 'global bare rows p50 ms': ms(globalBare), 'global ratio': fmt(summarize(global).p50 / summarize(globalBare).p50),
  })
}
report(`history over one year of 5-minute samples for ${SERVERS} servers (generated in ${fmt(generationS, 0)} s; ${count('ping_sample')} raw samples, `
  + `${count('ping_hourly')} hourly and ${count('ping_daily')} daily rollups, ${scopeNames.length} global scopes; database ${fmt(sizeMb, 0)} MB; `
  + `health route p50 ${fmt(summarize(floor).p50, 3)} ms)`, rows)
cleanupTemp()
process.exit(0)
