// The public pages with 1,000 listed servers (each with a coloured MOTD, half with an icon, a third
// with a banner) and 100,000 votes this month, through real HTTP: the app listens on 127.0.0.1
// and wrk sends one request after another on one keep-alive connection to each page for a few
// seconds (BENCH_SECONDS), so the figure is what one visitor waits for, routing, language,
// queries, HTML and the socket included. The site's clock moves with real time, so whatever the
// pages keep for a few seconds is rebuilt during the run as it would be in production.
// Baselines measured in the same run: the ranking query alone (what any page of the ranking must
// run, in-process), the health check (a static answer of the server: the socket's floor) and a
// bare Bun.serve answering the home page's bytes (the HTTP floor for a page that size). Targets:
// the home page and a server page, p50 under 1 ms.
import { createUser } from '../../src/accounts/service.ts'
import { createApp } from '../../src/app.ts'
import type { ManualClock } from '../../src/clock.ts'
import { writeTx } from '../../src/db/open.ts'
import { newId } from '../../src/ids.ts'
import { memoryLogger } from '../../src/log.ts'
import { imageHash } from '../../src/media/icon.ts'
import { ipKey } from '../../src/net/ip.ts'
import { motdFromChat, motdText } from '../../src/motd/format.ts'
import { listenApp } from '../../src/serve.ts'
import { createServer } from '../../src/servers/service.ts'
import { png } from '../media/images.ts'
import { cleanupTemp, sqliteSite, testConfig, testLookup } from '../helpers.ts'
import { fmt, report, summarize, target, timeEach, wrk, type WrkResult } from './lib.ts'

const SERVERS = 1000
const VOTES = 100_000
const RUNS = 400
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)

// The site's time: set where the seed needs it, then running on with the real time.
function runningClock(start: number): ManualClock {
  let origin = start
  let at = performance.now()
  const now = () => origin + Math.floor(performance.now() - at)
  return {
    now,
    set: (ms) => { origin = ms; at = performance.now() },
    advance: (ms) => { origin += ms },
  }
}

// Servers listed since October (so that October has a ranking too), votes in November.
const clock = runningClock(Date.UTC(2026, 9, 1))
const rt = sqliteSite(testConfig(), { clock, log: memoryLogger('error'), lookup: testLookup })
const owner = await createUser(rt, { email: 'bench@example.com', password: 'correct horse battery' })
const modes = rt.config.servers.modes
const servers = await Promise.all(Array.from({ length: SERVERS }, (_, i) => createServer(rt, owner.id, {
  name: `Server ${i} ${['Valley', 'Craft', 'Realm', 'Isles'][i % 4]}`, host: `play${i}.example.com`,
  edition: i % 5 === 0 ? 'bedrock' : 'java', modes: [modes[i % modes.length], modes[(i * 7 + 3) % modes.length]].filter((m, j, a) => a.indexOf(m) === j),
  description: `A friendly server number ${i}.`,
})))
clock.set(Date.UTC(2026, 10, 28, 12))
// Votes spread over the month with a long tail (a few big servers, many small ones), written
// through the votes repo so that the month counters are exactly what recordVote keeps.
const start = Date.UTC(2026, 10, 1)
writeTx(rt.db, () => {
  for (let i = 0; i < VOTES; i++) {
    const s = servers[Math.floor(SERVERS * Math.pow(Math.random(), 3))]
    const pseudo = `player${i}`
    const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
    rt.store.votes.insert({ id: newId(), serverId: s.id, pseudo, pseudoKey: pseudo, createdAt: start + i * 20_000 },
      [{ ipKey: ipKey(address)!, address }])
  }
  // Every server with a coloured two-line MOTD, half of them with an icon, a third with a banner:
  // what the rows show.
  const status = rt.db.prepare('INSERT INTO server_status (server_num, online, players_online, players_max, motd, motd_styled, last_ping_at) VALUES (?, ?, ?, 100, ?, ?, ?)')
  const icon = rt.db.prepare('INSERT INTO server_icon (server_num, png, hash, updated_at) VALUES (?, ?, ?, ?)')
  const banner = rt.db.prepare("INSERT INTO server_banner (server_num, type, width, height, bytes, hash, updated_at) VALUES (?, 'image/png', 468, 60, ?, ?, ?)")
  for (const s of servers) {
    const motd = motdFromChat({ text: `§6§l${s.name}`, extra: [{ text: ' | ', color: 'dark_gray' }, { text: 'Survival & skyblock\n', color: '#3fa9f5' }, { text: '§aNew season §fopen §cnow', italic: true }] })
    status.run(s.num, s.num % 7 === 0 ? 0 : 1, s.num % 90, motdText(motd), JSON.stringify(motd), rt.clock.now())
    if (s.num % 2 === 0) {
      const bytes = png(64, 64, [s.num % 256, 100, 50])
      icon.run(s.num, bytes, imageHash(bytes), rt.clock.now())
    }
    if (s.num % 3 === 0) {
      const bytes = png(468, 60, [s.num % 256, 40, 90])
      banner.run(s.num, bytes, imageHash(bytes), rt.clock.now())
    }
  }
})

// Served as `votelist serve` serves it (development mode off, no WebSocket handler).
const app = createApp(rt)
listenApp(app, '127.0.0.1', 0, rt.config.http.max_body_bytes)
const base = `http://127.0.0.1:${app.server!.port}`
const home = await fetch(`${base}/`)
if (home.status !== 200) throw new Error(`/ answered ${home.status}`)
const homeBytes = await home.text()
// The bare floor: the same bytes from a Bun.serve that does nothing else.
const bare = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(homeBytes, { headers: { 'content-type': 'text/html; charset=utf-8' } }) })

// The server at the top of the ranking (the most votes) and one in the middle.
const { rows: top } = rt.store.ranking.page('2026-11', {}, 1, 0)
const { rows: middle } = rt.store.ranking.page('2026-11', {}, 1, SERVERS / 2)

// One visitor, one request after another: wrk's p50 on one connection.
async function visit(url: string, headers: Record<string, string> = {}): Promise<WrkResult> {
  const r = await wrk(url, { connections: 1, seconds: SECONDS, headers })
  if (r.errors) throw new Error(`${r.errors} failed requests on ${url}`)
  return r
}

await wrk(`${base}/`, { connections: 1, seconds: 1 }) // warm-up: JIT, SQLite's page cache
const query = summarize(await timeEach(RUNS, () => rt.store.ranking.page('2026-11', {}, 50, 0)))
const row = (request: string, r: { p50: number; p99: number; rps?: number }) => ({
  request, 'p50 ms': fmt(r.p50, 3), 'p99 ms': fmt(r.p99, 3), 'req/s': r.rps ? fmt(r.rps, 0) : '', 'p50 / ranking query': fmt(r.p50 / query.p50),
})
const measured = (r: WrkResult) => ({ p50: r.p50Ms, p99: r.p99Ms, rps: r.requestsPerSec })
const rows = [
  row('rt.store.ranking.page() alone, in-process (baseline)', query),
  row(`bare Bun.serve answering the home page's ${Math.round(homeBytes.length / 1024)} KB`, measured(await visit(`http://127.0.0.1:${bare.port}/`))),
  row('GET /api/v1/health (static answer: socket floor)', measured(await visit(`${base}/api/v1/health`))),
]
const pages: Record<string, WrkResult> = {}
const paths: [string, Record<string, string>?][] = [
  ['/'], ['/', { 'accept-language': 'fr-FR,fr;q=0.9' }], ['/?page=10'], ['/?mode=survival'], ['/?edition=bedrock&search=valley'], ['/?month=2026-10'],
  [`/serveur/${top[0].slug}`], [`/serveur/${middle[0].slug}`],
]
for (const [path, headers] of paths) {
  const name = `GET ${path}${headers ? ' (French)' : ''}`
  pages[name] = await visit(`${base}${path}`, headers)
  rows.push(row(name, measured(pages[name])))
}
report(`Public pages with ${SERVERS} servers and ${VOTES.toLocaleString('en-US')} votes this month (real HTTP, one connection, ${SECONDS} s each)`, rows)

const against = `ranking query alone ${fmt(query.p50, 2)} ms`
const met = [
  target({ name: 'home page p50', value: pages['GET /'].p50Ms, op: '<', goal: 1, unit: 'ms', against }),
  target({ name: 'server page p50', value: pages[`GET /serveur/${middle[0].slug}`].p50Ms, op: '<', goal: 1, unit: 'ms', against }),
].every(Boolean)
await app.stop()
bare.stop(true)
rt.db.close()
cleanupTemp()
process.exit(met ? 0 : 1)
