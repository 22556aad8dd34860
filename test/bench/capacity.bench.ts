// Capacity, for admins: a busy list played on this machine for BENCH_SECONDS (default 60), every
// kind of work at once, against the real site in its own process (`bun src/main.ts serve`, or
// the compiled dist/votelist with BENCH_BINARY=1):
// - votes through the real HTTP path (captcha off, each with its own pseudo and address);
// - plugins checking and claiming votes with their servers' API keys;
// - page views: the ranking (2,000 servers listed) and server pages;
// - a ping round over the 2,000 servers (Java status responders on 127.0.0.1, another process),
//   started as the measured window opens and due to finish within its period;
// - deliveries to slow receivers (Votifier v2 listeners and webhook receivers in this process,
//   answering 50–200 ms after a vote arrives) for the votes of the servers that have them.
// Each HTTP class is its own wrk at a fixed rate (BENCH_RATES=votes=200,checks=600,… to change
// them). Reported per class: the rate held, p50 and p99, errors (must be 0); deliveries completed
// a second and vote → received p99; the ping round's duration. Then the sentence for the docs.
import { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { createUser } from '../../src/accounts/service.ts'
import { loadConfig } from '../../src/config/load.ts'
import { writeTx } from '../../src/db/open.ts'
import { newId } from '../../src/ids.ts'
import { createKey } from '../../src/keys/service.ts'
import { memoryLogger } from '../../src/log.ts'
import { ipKey } from '../../src/net/ip.ts'
import { createServer } from '../../src/servers/service.ts'
import { cleanupTemp, sqliteSite, tempDir, testLookup } from '../helpers.ts'
import { startVotifierReceiver } from '../push/votifier-receiver.ts'
import { startServer, stopServer, writeLoadConfig } from '../real-server.ts'
import { startWebhookReceiver } from '../webhooks/webhook-receiver.ts'
import { cpuSecondsOf, cpuSince, cpuTicks, fmt, memoryKb, report, summarize, target, wrk, writePacedScript, type WrkResult } from './lib.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60)
const WARMUP_SECONDS = 5
const SERVERS = 2000
const PAST_VOTES = 100_000 // this month's and last month's votes before the run, long-tailed
const PLUGIN_SERVERS = 400 // servers whose plugin checks and claims with the server's API key
const DELIVERING = 32 // servers with a Votifier v2 target and a webhook
const RECEIVERS = 16 // v2 listeners, and as many webhook receivers (two servers share each)
const SECRET = 'whsec_' + 'c'.repeat(43)
const answerAfterMs = () => 50 + Math.random() * 150

// Requests a second asked of each class, and the connections that carry them (enough to catch up
// after a stall of the shared machine, few enough to be a realistic crowd). `deliveries`
// is not a wrk: it sets the share of the votes that go to the servers with targets (two
// deliveries each).
const rates: Record<string, number> = { votes: 200, checks: 600, claims: 100, home: 10, server: 40, deliveries: 40 }
for (const pair of (process.env.BENCH_RATES ?? '').split(',').filter(Boolean)) {
  const [name, value] = pair.split('=')
  if (!(name in rates) || !(Number(value) > 0)) throw new Error(`BENCH_RATES: ${pair} is not class=rate (classes: ${Object.keys(rates).join(', ')})`)
  rates[name] = Number(value)
}
const connectionsFor = (rate: number) => Math.min(64, Math.max(4, Math.ceil(rate / 15)))

// The ping period is the measured window: the round starts when the window opens and must end
// before it closes (with its pings spread over the first half, as the site always does).
const PING_PERIOD = SECONDS

let binary: string | undefined
if (process.env.BENCH_BINARY) {
  binary = join(import.meta.dir, '../../dist/votelist')
  if (!existsSync(binary)) throw new Error(`BENCH_BINARY is set but ${binary} does not exist: bun run build first`)
}

const dir = tempDir('votelist-capacity-')

// The 2,000 listed servers answer pings from another process, on 2,000 ports of 127.0.0.1.
const responder = Bun.spawn(['bun', join(import.meta.dir, 'slp-responder.ts'), String(SERVERS)], { stdout: 'pipe', stderr: 'inherit' })
const reader = responder.stdout.getReader()
let line = ''
while (!line.includes('\n')) line += new TextDecoder().decode((await reader.read()).value)
const pingPorts: number[] = JSON.parse(line)
// The other processes end with this one, whatever stops it.
let running: Awaited<ReturnType<typeof startServer>> | undefined
process.on('exit', () => {
  responder.kill()
  running?.proc.kill()
})

const v2 = Array.from({ length: RECEIVERS }, () => startVotifierReceiver({ tokens: { default: 'capacity-token' }, answerAfterMs }))
const hooks = Array.from({ length: RECEIVERS }, () => startWebhookReceiver(SECRET, { answerAfterMs }))

const configPath = writeLoadConfig(dir, 'site.db', `
[network]
allow_private_targets = true
[stats]
ping_interval_seconds = ${PING_PERIOD}
[log]
level = "info"
`)

// --- The list, written before the site starts ------------------------------------------------
const setupStart = performance.now()
const rt = sqliteSite(loadConfig(configPath), { log: memoryLogger('warn'), lookup: testLookup })
const owner = await createUser(rt, { email: 'capacity@example.com', password: 'correct horse battery' })
const modes = rt.config.servers.modes
const servers: Awaited<ReturnType<typeof createServer>>[] = []
for (const [i, port] of pingPorts.entries()) {
  servers.push(await createServer({ ...rt, lookup: testLookup }, owner.id, {
    name: `Server ${i} ${['Valley', 'Craft', 'Realm', 'Isles'][i % 4]}`, host: '127.0.0.1', port,
    modes: [modes[i % modes.length], modes[(i * 7 + 3) % modes.length]].filter((m, j, a) => a.indexOf(m) === j),
    description: `A friendly server number ${i}.`,
  }))
}
const plugins = servers.slice(0, PLUGIN_SERVERS)
const keys = await Promise.all(plugins.map(async (s) => (await createKey(rt, s.id, 'plugin')).key))
const delivering = servers.slice(PLUGIN_SERVERS, PLUGIN_SERVERS + DELIVERING)
for (const [i, s] of delivering.entries()) {
  rt.store.channels.putVotifier({ serverId: s.id, host: '127.0.0.1', port: v2[i % RECEIVERS].port, protocol: 'v2', publicKey: null, token: 'capacity-token' }, rt.clock.now())
  rt.store.channels.putWebhook(s.id, hooks[i % RECEIVERS].url(), SECRET, rt.clock.now())
}

// Votes the plugins find: pseudo claim<j> voted for plugin server j mod PLUGIN_SERVERS within the
// last 100 minutes (inside the default 120-minute window); each claim takes the next j, so every
// claim claims a vote. Enough for the warm-up (at most a ping period) and the run, and more.
const claimable = Math.ceil(rates.claims * (WARMUP_SECONDS + PING_PERIOD + SECONDS + 30) * 1.2)
const now = Date.now()
const insertVote = (serverId: string, pseudo: string, createdAt: number, address: string) =>
  rt.store.votes.insert({ id: newId(), serverId, pseudo, pseudoKey: pseudo.toLowerCase(), createdAt }, [{ ipKey: ipKey(address)!, address }])
writeTx(rt.db, () => {
  // Older votes, spread over the last 20 days before the last three hours (out of every interval),
  // most of them for a few servers: the ranking a busy list shows.
  for (let i = 0; i < PAST_VOTES; i++) {
    const s = servers[Math.floor(SERVERS * Math.pow(Math.random(), 3))]
    insertVote(s.id, `player${i}`, now - 3 * 3600_000 - (PAST_VOTES - i) * Math.floor(20 * 86_400_000 / PAST_VOTES), `172.16.${(i >> 8) & 255}.${i & 255}`)
  }
  for (let j = 0; j < claimable; j++) {
    insertVote(plugins[j % PLUGIN_SERVERS].id, `claim${j}`, now - 100 * 60_000 + Math.floor(j * (90 * 60_000 / claimable)), `172.17.${(j >> 8) & 255}.${j & 255}`)
  }
})
rt.db.run('ANALYZE')
rt.db.close()
console.log(`list written in ${fmt((performance.now() - setupStart) / 1000, 1)} s: ${SERVERS} servers, ${PAST_VOTES} past votes, ${claimable} votes to claim, ${PLUGIN_SERVERS} API keys, ${DELIVERING} servers with a v2 target and a webhook`)

// --- The load --------------------------------------------------------------------------------
const site = await startServer(configPath, 60_000, binary)
running = site
const sitePid = site.proc.pid

// Sanity, before any load: a plugin finds its vote, the ranking lists the servers.
const probe = await fetch(`${site.url}/api/v1/votes/check?pseudo=claim0`, { headers: { 'X-Api-Key': keys[0] } })
if (probe.status !== 200 || !(await probe.json()).hasVoted) throw new Error('the plugin check does not find the seeded vote')
if (!(await (await fetch(`${site.url}/`)).text()).includes(' Valley')) throw new Error('the ranking does not list the servers')

// Votes go round this list of slugs: every server once, and the servers with targets as many
// times more as gives them the share of the votes that asks for rates.deliveries deliveries a
// second, spread evenly through the list (in a block, their votes would come in bursts).
const share = Math.min(0.9, rates.deliveries / 2 / rates.votes)
const extra = Math.max(0, Math.round((share * SERVERS - DELIVERING) / (1 - share)))
const voteSlugs: string[] = []
for (let k = 0, other = 0, total = SERVERS + extra; k < total; k++) {
  const more = Math.floor(((k + 1) * extra) / total) > Math.floor((k * extra) / total)
  voteSlugs.push(more ? delivering[k % DELIVERING].slug : servers[other++].slug)
}

const lua = (xs: string[]) => `{ ${xs.map((x) => JSON.stringify(x)).join(', ')} }`
const scripts = {
  votes: writePacedScript(dir, 'votes', rates.votes, `dofile(${JSON.stringify(join(import.meta.dir, 'vote-spread.lua'))})`),
  checks: writePacedScript(dir, 'checks', rates.checks, `local keys = ${lua(keys)}
math.randomseed(17)
request = function()
  local j = math.random(${claimable}) - 1
  return wrk.format("GET", "/api/v1/votes/check?pseudo=claim" .. j, { ["X-Api-Key"] = keys[(j % #keys) + 1] })
end`),
  claims: writePacedScript(dir, 'claims', rates.claims, `local keys = ${lua(keys)}
local j = 0
init = function(args) j = tonumber(args[1]) end
request = function()
  local key = keys[(j % #keys) + 1]
  local path = "/api/v1/votes/claim?pseudo=claim" .. j
  j = j + 1
  return wrk.format("POST", path, { ["X-Api-Key"] = key })
end`),
  home: writePacedScript(dir, 'home', rates.home, `request = function() return wrk.format("GET", "/") end`),
  server: writePacedScript(dir, 'server', rates.server, `local slugs = ${lua(servers.map((s) => s.slug))}
math.randomseed(23)
request = function() return wrk.format("GET", "/serveur/" .. slugs[math.random(#slugs)]) end`),
}
const labels: Record<string, string> = {
  votes: 'votes (POST /serveur/{slug}/voter)', checks: 'plugin checks (GET /api/v1/votes/check)', claims: 'plugin claims (POST /api/v1/votes/claim)',
  home: 'ranking page (GET /)', server: 'server pages (GET /serveur/{slug})',
}
// Where each wrk starts its count (votes: pseudos and addresses; claims: the next claim<j>), so that
// the warm-up and the measured run never send the same vote or claim.
function runAll(seconds: number, phase: 0 | 1) {
  const claimsStart = phase === 0 ? 0 : Math.ceil(rates.claims * (PING_PERIOD + WARMUP_SECONDS + 5) * 1.1)
  const args: Record<string, string[]> = { votes: [String(phase * 4_000_000), ...voteSlugs], claims: [String(claimsStart)] }
  return Promise.all(Object.entries(scripts).map(([name, script]) =>
    wrk(`${site.url}/`, { connections: connectionsFor(rates[name]), seconds, script, args: args[name] }).then((r) => [name, r] as const)))
}

// The window opens on a multiple of the ping period (when the site's round starts); the load
// runs from now until then as the warm-up (at least WARMUP_SECONDS).
const periodMs = PING_PERIOD * 1000
const windowStart = Math.ceil((Date.now() + (WARMUP_SECONDS + 2) * 1000) / periodMs) * periodMs
const warmup = await runAll(Math.floor((windowStart - Date.now()) / 1000) - 1, 0)
const warmupErrors = warmup.reduce((n, [, r]) => n + r.errors, 0)
await Bun.sleep(Math.max(0, windowStart - Date.now()))

const cpuBefore = cpuSecondsOf(sitePid)
const machineBefore = cpuTicks()
const t0 = Date.now()
const results = Object.fromEntries(await runAll(SECONDS, 1)) as Record<string, WrkResult>
const windowMs = Date.now() - t0
const siteCpu = (cpuSecondsOf(sitePid) - cpuBefore) / (windowMs / 1000)
const machine = cpuSince(machineBefore)
const siteRssMb = memoryKb('VmHWM', sitePid) / 1024

// --- Deliveries: every vote for a server with targets reaches both of its receivers ----------
const db = new Database(join(dir, 'site.db'), { readonly: true })
const placeholders = delivering.map(() => '?').join(', ')
const countDeliveringVotes = () => (db.query(`SELECT count(*) AS n FROM vote WHERE server_id IN (${placeholders}) AND pseudo LIKE 'v%'`).get(...delivering.map((s) => s.id)) as { n: number }).n
const receivedCount = () => v2.reduce((n, r) => n + r.votes.length, 0) + hooks.reduce((n, r) => n + r.received.length, 0)
// Counted again each time: a vote whose request was in flight as wrk stopped may commit later.
let expected = 2 * countDeliveringVotes()
const drainDeadline = Date.now() + 120_000
while (receivedCount() < expected && Date.now() < drainDeadline) {
  await Bun.sleep(100)
  expected = 2 * countDeliveringVotes()
}
const drainedAfterMs = Date.now() - (t0 + windowMs)

// Arrivals in the window (the rate held), and vote → received for the window's votes.
const arrivals = [
  ...v2.flatMap((r) => r.votes.map((v, i) => ({ createdAt: Number(v.timestamp), at: r.arrivedAt[i] }))),
  ...hooks.flatMap((r) => r.received.map((h, i) => ({ createdAt: Date.parse(h.json.vote.createdAt), at: r.arrivedAt[i] }))),
]
const windowSeconds = windowMs / 1000
const deliveredPerSec = arrivals.filter((a) => a.at >= t0 && a.at < t0 + windowMs).length / windowSeconds
const ofWindowVotes = arrivals.filter((a) => a.createdAt >= t0 && a.createdAt < t0 + windowMs)
const askedDeliveriesPerSec = ofWindowVotes.length / windowSeconds
const latency = summarize(ofWindowVotes.map((a) => a.at - a.createdAt))

// --- The ping round that started as the window opened -------------------------------------
type Round = { t: string; servers: number; up: number; durationMs: number }
const roundOf = (): Round | undefined => site.log
  .map((l) => / INFO ping round (\{.*\})$/.exec(l)?.[1]).filter((j): j is string => !!j)
  .map((j) => JSON.parse(j) as Round).find((r) => Date.parse(r.t) === windowStart)
const roundDeadline = windowStart + periodMs + 10_000
while (!roundOf() && Date.now() < roundDeadline) await Bun.sleep(100)
const round = roundOf()

const exitCode = await stopServer(site)
const failedDeliveries = (db.query(`SELECT count(*) AS n FROM delivery WHERE status != 'succeeded'`).get() as { n: number }).n
const claimed = (db.query('SELECT count(*) AS n FROM vote WHERE claimed_at IS NOT NULL').get() as { n: number }).n
db.close()
responder.kill()
for (const r of [...v2, ...hooks]) r.stop()

// --- Report ----------------------------------------------------------------------------------
const held = (name: string) => results[name].requestsPerSec
const classes = Object.keys(scripts)
const rows: Record<string, string | number>[] = classes.map((name) => ({
  class: labels[name], connections: connectionsFor(rates[name]), 'asked /s': rates[name], 'held /s': fmt(held(name), 0),
  'p50 ms': fmt(results[name].p50Ms), 'p99 ms': fmt(results[name].p99Ms), errors: results[name].errors,
}))
const missingDeliveries = Math.max(0, expected - receivedCount()) + Math.max(0, receivedCount() - expected)
rows.push({
  class: `deliveries (v2 + webhook, receivers answer after 50–200 ms)`, connections: '', 'asked /s': fmt(askedDeliveriesPerSec, 0), 'held /s': fmt(deliveredPerSec, 0),
  'p50 ms': fmt(latency.p50), 'p99 ms': fmt(latency.p99), errors: failedDeliveries + missingDeliveries,
})
report(`Capacity: every class at once for ${fmt(windowSeconds, 1)} s on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} (site: ${binary ? 'dist/votelist' : 'bun src/main.ts'}, SQLite)`, rows)
console.log(`deliveries: ${receivedCount()} received of ${expected} expected, all in ${fmt(drainedAfterMs / 1000, 1)} s after the load stopped; vote → received p50 ${fmt(latency.p50)} ms, p99 ${fmt(latency.p99)} ms over ${latency.n}`)
console.log(round
  ? `ping round: ${round.up} of ${round.servers} servers up, done in ${fmt(round.durationMs / 1000, 1)} s of its ${PING_PERIOD} s period (pings spread over the first half)`
  : `ping round: the round due at ${new Date(windowStart).toISOString()} did not finish within its ${PING_PERIOD} s period`)
console.log(`CPU: the site used ${fmt(siteCpu * 100, 0)} % of one core on average, the whole machine ${fmt(machine.busyPct * cpus().length, 0)} % (of ${cpus().length * 100} %: the site, wrk, the receivers and anything else running), steal ${fmt(machine.stealPct, 1)} %`)
console.log(`site process: peak RSS ${fmt(siteRssMb, 0)} MB; claims that found their vote: ${claimed} claimed in all; warm-up errors ${warmupErrors}; stopped with exit code ${exitCode}`)

const httpErrors = Object.values(results).reduce((n, r) => n + r.errors, 0)
const claimsSent = warmup.find(([name]) => name === 'claims')![1].requests + results.claims.requests
const errors = httpErrors + warmupErrors + failedDeliveries + missingDeliveries + (claimed < claimsSent ? claimsSent - claimed : 0) + (exitCode === 0 ? 0 : 1)
const p99 = Math.max(...Object.values(results).map((r) => r.p99Ms))
const pages = held('home') + held('server')
console.log(`\nOne ${cpus().length}-core machine holds ${fmt(held('votes'), 0)} votes a second while answering ${fmt(held('checks') + held('claims'), 0)} plugin checks and claims `
  + `and ${fmt(pages, 0)} page views a second, making ${fmt(deliveredPerSec, 0)} deliveries a second to slow Votifier and webhook receivers `
  + `and pinging ${SERVERS.toLocaleString('en-US')} servers every ${PING_PERIOD} s, with p99 under ${Math.ceil(p99)} ms for every request `
  + `and ${Math.ceil(latency.p99)} ms from vote to delivery (p99).`)

const met = [
  target({ name: 'errors (HTTP, deliveries, claims)', value: errors, op: '<=', goal: 0 }),
  target({ name: 'ping round done within its period', value: round && round.up === SERVERS ? round.durationMs / 1000 : Infinity, op: '<', goal: PING_PERIOD, unit: 's', against: `${SERVERS} servers` }),
  // The sentence holds only if every class got what it asked for, deliveries included.
  target({ name: 'rate held, slowest class (held / asked)', value: Math.min(...classes.map((n) => held(n) / rates[n]), deliveredPerSec / askedDeliveriesPerSec), op: '>=', goal: 0.95 }),
].every(Boolean)
cleanupTemp()
process.exit(met ? 0 : 1)
