// One site three ways, in the same run: one instance on SQLite, one on PostgreSQL, two on
// PostgreSQL (one database), each a real `bun src/main.ts serve` process. Measured with wrk: votes
// accepted per second (JSON POST, every vote a new player and address) and verification checks per
// second (GET /api/v1/votes/check with a key, as check.bench.ts), the votes all for one server (as
// votes.bench.ts) and spread over 16 servers (a list's votes: those of one server are written one
// after the other on PostgreSQL, those of different servers side by side), alternating the setups
// round after round; then the latency from sending a vote to its arrival at a Votifier v2 listener
// on loopback, one vote at a time, for SQLite and for two PostgreSQL instances (votes alternating
// between them). The PostgreSQL cluster is a throwaway one with production durability (fsync and
// synchronous commits on); its data is the SQLite site's, copied with `votelist db copy`.
import { SQL } from 'bun'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/load.ts'
import { writeTx } from '../../src/db/open.ts'
import { newId } from '../../src/ids.ts'
import { createKey } from '../../src/keys/service.ts'
import { memoryLogger } from '../../src/log.ts'
import { cleanupTemp, seedServer, sqliteSite, tempDir } from '../helpers.ts'
import { startCluster } from '../postgres/cluster.ts'
import { startVotifierReceiver } from '../push/votifier-receiver.ts'
import { startServer, stopServer, type RunningServer } from '../real-server.ts'
import { cli } from '../spawn.ts'
import { fmt, median, report, summarize, wrk, writeCheckScript } from './lib.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const VOTE_CONNECTIONS = 32
const CHECK_CONNECTIONS = 64
const LATENCY_VOTES = Number(process.env.BENCH_LATENCY_VOTES ?? 300)
const PSEUDOS = 5_000
const VOTES = 100_000
const SETUPS = ['SQLite, 1 instance', 'PostgreSQL, 1 instance', 'PostgreSQL, 2 instances'] as const
const SPREAD = 16
// Each vote run counts its players and addresses from its own start (wrk's script argument):
// 500,000 apart, 30 runs stay below the 2^24 addresses of 10.0.0.0/8.
const RUN_STEP = 500_000

const found = Bun.spawnSync(['sh', join(import.meta.dir, '../ensure-postgres.sh')], { stdout: 'pipe', stderr: 'inherit' })
if (found.exitCode !== 0) process.exit(1)
const cluster = await startCluster(found.stdout.toString().trim(), { durable: true })
const votifier = startVotifierReceiver({ tokens: { MyServerList: 'tok' } })
const running: RunningServer[] = []
try {
  const dir = tempDir('votelist-bench-')
  const toml = (database: string) => `
[http]
host = "127.0.0.1"
port = 0
trust_proxy = true
[database]
${database}
[votes]
captcha = "off"
[limits]
vote_attempts_per_minute = 1000000
keyed_per_minute = 1000000
[network]
allow_private_targets = true
`
  const sqlitePath = join(dir, 'sqlite.toml')
  writeFileSync(sqlitePath, toml('path = "site.db"'))

  // The site: servers listed on 127.0.0.1 (their pings stay on loopback), one for each measured
  // vote run and its warm-up (the vote interval is per server), one with a Votifier target per
  // latency run, and one whose players voted: 5,000 of them in the last hour, among 100,000 votes
  // of the last week spread over 50 servers.
  const rt = sqliteSite(loadConfig(sqlitePath), { log: memoryLogger('error') })
  const server = (name: string) => seedServer(rt, { name, host: '127.0.0.1', port: 9 }).then((s) => s.server)
  const voteSlugs: Record<string, string[]> = {}
  for (const setup of SETUPS) {
    voteSlugs[setup] = []
    for (let i = 0; i < ROUNDS * 2; i++) voteSlugs[setup].push((await server(`${setup} ${i}`)).slug)
  }
  const spreadSlugs: string[] = []
  for (let i = 0; i < SPREAD; i++) spreadSlugs.push((await server(`spread votes ${i}`)).slug)
  const latency: Record<string, string> = {}
  for (const setup of [SETUPS[0], SETUPS[2]]) {
    const s = await server(`latency ${setup}`)
    await rt.store.channels.putVotifier({ serverId: s.id, host: '127.0.0.1', port: votifier.port, protocol: 'v2', publicKey: null, token: 'tok' }, Date.now())
    latency[setup] = s.slug
  }
  const spread = await Promise.all(Array.from({ length: 50 }, (_, i) => server(`spread ${i}`)))
  const target = spread[0]
  const keys = await Promise.all(Array.from({ length: 4 }, async () => (await createKey(rt, target.id)).key))
  const now = Date.now()
  const insertVote = rt.db.prepare('INSERT INTO vote (id, server_id, pseudo, pseudo_key, created_at) VALUES (?, ?, ?, ?, ?)')
  writeTx(rt.db, () => {
    for (let i = 0; i < VOTES; i++) {
      const pseudo = `player_${(i * 7919) % PSEUDOS}`
      insertVote.run(newId(), spread[i % spread.length].id, pseudo, pseudo, now - 7 * 24 * 3600_000 + Math.floor(i * ((7 * 24 - 2) * 3600_000 / VOTES)))
    }
    for (let i = 0; i < PSEUDOS; i++) insertVote.run(newId(), target.id, `player_${i}`, `player_${i}`, now - 3600_000 + i)
  })
  rt.db.close()

  const admin = new SQL({ url: `${cluster.url}/postgres`, max: 1 })
  await admin.unsafe('CREATE DATABASE bench')
  await admin.close()
  const url = `${cluster.url}/bench`
  const copied = await cli(['db', 'copy', '--to', url, '--config', sqlitePath])
  if (copied.code !== 0) throw new Error(`db copy failed: ${copied.stderr}`)
  const pg = new SQL({ url, max: 1 })
  await pg.unsafe('ANALYZE')
  await pg.close()
  const postgresPath = join(dir, 'postgres.toml')
  writeFileSync(postgresPath, toml(`url = "${url}"`))

  const start = async (path: string) => {
    const s = await startServer(path, 60_000)
    running.push(s)
    return s
  }
  const sqlite = await start(sqlitePath)
  const [pgA, pgB] = [await start(postgresPath), await start(postgresPath)]
  const instancesOf: Record<string, RunningServer[]> = { [SETUPS[0]]: [sqlite], [SETUPS[1]]: [pgA], [SETUPS[2]]: [pgA, pgB] }

  // Load split evenly over the setup's instances (one wrk each, their counts added), as a
  // round-robin proxy would; votes from each wrk start at their own count (players, addresses).
  let nextVote = 0
  async function load(setup: string, path: string, kind: 'votes' | 'spread votes' | 'checks', seconds: number) {
    const list = instancesOf[setup]
    const connections = (kind === 'checks' ? CHECK_CONNECTIONS : VOTE_CONNECTIONS) / list.length
    const script = kind === 'checks' ? checkScript : join(import.meta.dir, kind === 'votes' ? 'vote-post.lua' : 'vote-spread.lua')
    const results = await Promise.all(list.map((instance) => {
      const args = kind === 'checks' ? undefined : [String((nextVote += RUN_STEP)), ...(kind === 'spread votes' ? spreadSlugs : [])]
      return wrk(`${instance.url}${path}`, { connections, seconds, script, args })
    }))
    const errors = results.reduce((n, r) => n + r.errors, 0)
    if (errors) throw new Error(`${setup}: ${errors} ${kind} refused or failed: the benchmark must only send valid requests`)
    return { perSecond: results.reduce((n, r) => n + r.requests, 0) / seconds, p99: Math.max(...results.map((r) => r.p99Ms)), steal: results[0].stealPct }
  }
  const checkScript = writeCheckScript(dir, PSEUDOS, keys)

  const figures = { votes: {}, spread: {}, checks: {} } as Record<'votes' | 'spread' | 'checks', Record<string, number[]>>
  for (const f of Object.values(figures)) for (const s of SETUPS) f[s] = []
  const rows: Record<string, string | number>[] = []
  for (let round = 0; round < ROUNDS; round++) {
    for (const setup of SETUPS) {
      const one = (i: number) => `/serveur/${voteSlugs[setup][round * 2 + i]}/voter`
      await load(setup, one(0), 'votes', 1)
      const v = await load(setup, one(1), 'votes', SECONDS)
      await load(setup, '/', 'spread votes', 1)
      const sp = await load(setup, '/', 'spread votes', SECONDS)
      await load(setup, '/api/v1/votes/check', 'checks', 1)
      const c = await load(setup, '/api/v1/votes/check', 'checks', SECONDS)
      figures.votes[setup].push(v.perSecond)
      figures.spread[setup].push(sp.perSecond)
      figures.checks[setup].push(c.perSecond)
      rows.push({
        round: round + 1, setup, 'votes /s (1 server)': fmt(v.perSecond, 0), 'p99 ms': fmt(v.p99), [`votes /s (${SPREAD} servers)`]: fmt(sp.perSecond, 0),
        'p99 ms ': fmt(sp.p99), 'checks /s': fmt(c.perSecond, 0), 'p99 ms  ': fmt(c.p99), 'steal %': fmt(v.steal, 1),
      })
    }
  }
  report(`every round (${SECONDS} s each; votes ${VOTE_CONNECTIONS} connections, checks ${CHECK_CONNECTIONS}, split over the instances)`, rows)
  const ratio = (kind: keyof typeof figures, setup: string) => fmt(median(figures[kind][setup]) / median(figures[kind][SETUPS[0]]))
  report('medians of the rounds, and ratios to one instance on SQLite', SETUPS.map((setup) => ({
    setup, 'votes /s (1 server)': fmt(median(figures.votes[setup]), 0), ratio: ratio('votes', setup),
    [`votes /s (${SPREAD} servers)`]: fmt(median(figures.spread[setup]), 0), 'ratio ': ratio('spread', setup),
    'checks /s': fmt(median(figures.checks[setup]), 0), 'ratio  ': ratio('checks', setup),
  })))

  // Vote → Votifier, one vote at a time: from sending the vote to the listener having it.
  const latencies: Record<string, number[]> = {}
  for (const setup of [SETUPS[0], SETUPS[2]]) {
    latencies[setup] = []
    const list = instancesOf[setup]
    for (let i = 0; i < LATENCY_VOTES + 20; i++) {
      const arrived = votifier.votes.length
      const t0 = performance.now()
      const r = await fetch(`${list[i % list.length].url}/serveur/${latency[setup]}/voter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': `172.16.${(i >> 8) & 255}.${i & 255}` },
        body: JSON.stringify({ pseudo: `late${i}` }),
      })
      if (r.status !== 201) throw new Error(`${setup}: vote refused with ${r.status}`)
      await votifier.waitVotes(arrived + 1)
      if (i >= 20) latencies[setup].push(performance.now() - t0) // the first 20 warm up
    }
  }
  report(`vote → Votifier v2 listener, ${LATENCY_VOTES} votes one at a time (HTTP vote, commit, job, attempt, delivery)`, Object.entries(latencies).map(([setup, ms]) => {
    const s = summarize(ms)
    return { setup, 'p50 ms': fmt(s.p50), 'p90 ms': fmt(s.p90), 'p99 ms': fmt(s.p99), 'max ms': fmt(s.max) }
  }))
} finally {
  for (const s of running) await stopServer(s)
  votifier.stop()
  cluster.stop()
  cleanupTemp()
}
