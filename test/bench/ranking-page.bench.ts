// The ranking page `/` with 1,000 listed servers (each with a coloured MOTD, half with an icon, a
// third with a banner) and 100,000 votes this month: render time of the whole request (routing, ranking query, the page's listings, HTML, layout) through the app,
// in-process. Baselines measured in the same run: the ranking query alone (what any page of the
// ranking must run) and the app's trivial health route (the framework's floor).
import { createUser } from '../../src/accounts/service.ts'
import { writeTx } from '../../src/db/open.ts'
import { newId } from '../../src/ids.ts'
import { ipKey } from '../../src/net/ip.ts'
import { imageHash } from '../../src/media/icon.ts'
import { motdFromChat, motdText } from '../../src/motd/format.ts'
import { createServer } from '../../src/servers/service.ts'
import { png } from '../media/images.ts'
import { cleanupTemp, testApp, testRuntime } from '../helpers.ts'
import { fmt, report, summarize, timeEach } from './lib.ts'

const SERVERS = 1000
const VOTES = 100_000
const RUNS = 400

// Servers listed since October (so that October has a ranking too), votes in November.
const rt = testRuntime({}, Date.UTC(2026, 9, 1))
const owner = await createUser(rt, { email: 'bench@example.com', password: 'correct horse battery' })
const modes = rt.config.servers.modes
const servers = await Promise.all(Array.from({ length: SERVERS }, (_, i) => createServer(rt, owner.id, {
  name: `Server ${i} ${['Valley', 'Craft', 'Realm', 'Isles'][i % 4]}`, host: `play${i}.example.com`,
  edition: i % 5 === 0 ? 'bedrock' : 'java', modes: [modes[i % modes.length], modes[(i * 7 + 3) % modes.length]].filter((m, j, a) => a.indexOf(m) === j),
  description: `A friendly server number ${i}.`,
})))
rt.clock.set(Date.UTC(2026, 10, 28, 12))
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

const app = await testApp(rt)
const get = async (path: string) => {
  const r = await app.handle(new Request(`http://localhost${path}`))
  if (r.status !== 200) throw new Error(`${path} answered ${r.status}`)
  await r.text()
}
const health = summarize(await timeEach(RUNS, () => get('/api/v1/health')))
const query = summarize(await timeEach(RUNS, () => rt.store.ranking.page('2026-11', {}, 50, 0)))
const row = (request: string, s: ReturnType<typeof summarize>) => ({
  request, 'p50 ms': fmt(s.p50, 3), 'p90 ms': fmt(s.p90, 3), 'p99 ms': fmt(s.p99, 3), 'p50 / ranking query': fmt(s.p50 / query.p50),
})
const rows = [row('GET /api/v1/health (framework floor)', health), row('rt.store.ranking.page() alone (baseline)', query)]
for (const path of ['/', '/?page=10', '/?mode=survival', '/?edition=bedrock&search=valley', '/?month=2026-10', `/serveur/${servers[0].slug}`]) {
  rows.push(row(`GET ${path}`, summarize(await timeEach(RUNS, () => get(path)))))
}
report(`Public pages with ${SERVERS} servers and ${VOTES.toLocaleString('en-US')} votes this month (in-process, ${RUNS} requests each)`, rows)
cleanupTemp()
process.exit(0)
