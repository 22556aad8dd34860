// Delivery throughput and vote-to-delivery latency, against a bare baseline in the same run.
//
// Throughput: 10,000 deliveries (5,000 votes on 16 servers, each with a Votifier v2 target and a
// webhook) queued in SQLite, then drained by the real job handler and scheduler to loopback
// receivers (8 v2 listeners, 8 webhook receivers), in this process; the bare baseline sends the
// same number straight from `concurrency` loops with the same protocol clients (no queue, no
// database, no gate). Rounds alternate the two; each reports its rate and its CPU time per
// delivery (this process does both sides, receivers included, so CPU per delivery is the steadier
// figure on a busy machine).
// Latency at idle: the real site (`bun src/main.ts serve`, its own process) takes one vote at a
// time through POST /serveur/{slug}/voter, and the time is taken from the moment the request is
// sent to the moment each receiver has the vote; the baseline is one bare send of each kind.
import { appendFileSync } from 'node:fs'
import { createUser } from '../../src/accounts/service.ts'
import { loadConfig, parseConfig } from '../../src/config/load.ts'
import { webhookBody } from '../../src/deliveries/channel.ts'
import type { VoteEvent } from '../../src/deliveries/repo.ts'
import { memoryLogger } from '../../src/log.ts'
import { sendVotifierV2 } from '../../src/push/votifier-v2.ts'
import { createServer } from '../../src/servers/service.ts'
import { registerSiteWork } from '../../src/site.ts'
import { recordVote } from '../../src/votes/service.ts'
import { sendWebhook } from '../../src/webhooks/send-webhook.ts'
import { cleanupTemp, seedServer, sqliteSite, tempDir } from '../helpers.ts'
import { startVotifierReceiver } from '../push/votifier-receiver.ts'
import { startServer, stopServer, writeLoadConfig } from '../real-server.ts'
import { startWebhookReceiver } from '../webhooks/webhook-receiver.ts'
import { fmt, median, report, summarize, target } from './lib.ts'

const VOTES = 5_000
const SERVERS = 16
const RECEIVERS = 8
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const LATENCY_VOTES = Number(process.env.BENCH_LATENCY_VOTES ?? 400)
const IDLE_MS = 10 // between two votes of the latency runs
const SECRET = 'whsec_' + 'b'.repeat(43)

const dir = tempDir('votelist-bench-')
const config = parseConfig({ network: { allow_private_targets: true }, votes: { captcha: 'off' }, log: { level: 'warn' } }, dir)
const rt = sqliteSite(config, { log: memoryLogger('warn') })
const concurrency = config.deliveries.concurrency

const v2 = Array.from({ length: RECEIVERS }, () => startVotifierReceiver({ tokens: { [config.site.service_name]: 'bench-token' } }))
const hooks = Array.from({ length: RECEIVERS }, () => startWebhookReceiver(SECRET))

const owner = await createUser(rt, { email: 'bench@example.com', password: 'correct horse battery' })
const servers = await Promise.all(Array.from({ length: SERVERS }, async (_, i) => {
  const s = await createServer(rt, owner.id, { name: `Bench ${i}`, host: 'play.example.com' })
  rt.store.channels.putVotifier({ serverId: s.id, host: '127.0.0.1', port: v2[i % RECEIVERS].port, protocol: 'v2', publicKey: null, token: 'bench-token' }, rt.clock.now())
  rt.store.channels.putWebhook(s.id, hooks[i % RECEIVERS].url(), SECRET, rt.clock.now())
  return s
}))
const received = () => v2.reduce((n, r) => n + r.votes.length, 0) + hooks.reduce((n, r) => n + r.received.length, 0)
const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
const cpuUs = () => { const u = process.cpuUsage(); return u.user + u.system }

// The same sends as the site's, straight from the protocol clients.
const event = (i: number): VoteEvent => ({ server: { id: 's', slug: 's', name: 'S' }, vote: { id: `v${i}`, pseudo: `B${i}`, createdAt: Date.now() }, address: address(i), monthlyVotes: i })
const timeouts = { connectMs: config.deliveries.votifier_connect_timeout, readMs: config.deliveries.votifier_read_timeout }
const sendBare = (i: number, receiver = (i >> 1) % RECEIVERS) => (i % 2 === 0
  ? sendVotifierV2({ host: '127.0.0.1', address: '127.0.0.1', port: v2[receiver].port }, 'bench-token', { serviceName: config.site.service_name, username: `B${i}`, address: address(i), timestamp: Date.now() }, timeouts)
  : sendWebhook({ url: hooks[receiver].url(), secret: SECRET, deliveryId: `d${i}`, event: 'vote', body: webhookBody(event(i), 'vote') },
    { allowPrivate: true, timeoutMs: config.deliveries.webhook_timeout, now: Date.now }))

// --- Throughput: queued deliveries drained, against the bare loops ------------------------
// The production wiring, as `serve` sets it up: the scheduler's drain task, woken by every enqueue
// and woken job (stopped while a round's votes are recorded, so that the drain is timed alone),
// and WAL checkpoints on their own thread instead of inside the commits of the delivery work.
registerSiteWork(rt)
const checkpoints = rt.store.checkpointInBackground(rt.log)
let voted = 0
const rows: Record<string, string | number>[] = []
const ratios: number[] = []
const cpuRatios: number[] = []
const bareRates: number[] = []
let undelivered = 0
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < VOTES; i++, voted++) await recordVote(rt, servers[voted % SERVERS], `P${String(voted).padStart(6, '0')}`, [address(voted)])
  const queued = (await rt.queue.pending()).total
  const before = received()
  let cpu = cpuUs()
  let t = performance.now()
  rt.scheduler.start()
  rt.scheduler.wake('jobs.drain')
  while (received() - before < queued) await Bun.sleep(1)
  const drainMs = performance.now() - t
  const siteCpu = (cpuUs() - cpu) / queued
  while ((await rt.queue.pending()).total > 0) await Bun.sleep(1)
  await rt.scheduler.stop()
  undelivered += (rt.db.query(`SELECT count(*) AS n FROM delivery WHERE status != 'succeeded'`).get() as { n: number }).n

  let next = 0
  cpu = cpuUs()
  t = performance.now()
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next < queued) await sendBare(next++) }))
  const bareMs = performance.now() - t
  const bareCpu = (cpuUs() - cpu) / queued

  const [site, bare] = [queued / (drainMs / 1000), queued / (bareMs / 1000)]
  ratios.push(site / bare)
  cpuRatios.push(bareCpu / siteCpu)
  bareRates.push(bare)
  rows.push({
    round: round + 1, 'site deliveries/s': fmt(site, 0), 'bare sends/s': fmt(bare, 0), ratio: fmt(site / bare),
    'site CPU µs/delivery': fmt(siteCpu, 0), 'bare CPU µs/send': fmt(bareCpu, 0),
  })
}
await checkpoints?.stop()
rt.db.close()

// --- Latency at idle: the real site, one vote at a time ----------------------------------
const siteDir = tempDir('votelist-bench-')
const configPath = writeLoadConfig(siteDir)
appendFileSync(configPath, '[network]\nallow_private_targets = true\n')
const seeded = sqliteSite(loadConfig(configPath), { log: memoryLogger() })
const { server } = await seedServer(seeded, { name: 'Latency' })
const [vr, hr] = [v2[0], hooks[0]]
seeded.store.channels.putVotifier({ serverId: server.id, host: '127.0.0.1', port: vr.port, protocol: 'v2', publicKey: null, token: 'bench-token' }, Date.now())
seeded.store.channels.putWebhook(server.id, hr.url(), SECRET, Date.now())
seeded.db.close()

const site = await startServer(configPath)
const votifierLatency: number[] = []
const webhookLatency: number[] = []
const vote = async (i: number) => {
  const r = await fetch(`${site.url}/serveur/${server.slug}/voter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': address(i) },
    body: JSON.stringify({ pseudo: `L${String(i).padStart(6, '0')}` }),
  })
  if (r.status !== 201) throw new Error(`the site refused a vote: ${r.status} ${await r.text()}`)
}
// Warm-up: the first votes pay for the code paths' first runs.
for (let i = 0; i < LATENCY_VOTES + 20; i++) {
  const [nv, nh] = [vr.votes.length + 1, hr.received.length + 1]
  const start = performance.now()
  const arrived = Promise.all([vr.waitVotes(nv).then(() => performance.now() - start), hr.waitFor(nh).then(() => performance.now() - start)])
  await vote(i)
  const [lv, lh] = await arrived
  if (i >= 20) {
    votifierLatency.push(lv)
    webhookLatency.push(lh)
  }
  await Bun.sleep(IDLE_MS)
}
const stopped = await stopServer(site)
const bareVotifier: number[] = []
const bareWebhook: number[] = []
for (let i = 0; i < LATENCY_VOTES + 20; i++) {
  const start = performance.now()
  const [lv, lh] = await Promise.all([
    sendBare(2 * i, 0).then(() => performance.now() - start),
    sendBare(2 * i + 1, 0).then(() => performance.now() - start),
  ])
  if (i >= 20) {
    bareVotifier.push(lv)
    bareWebhook.push(lh)
  }
  await Bun.sleep(IDLE_MS)
}

const [lv, lw, bv, bw] = [votifierLatency, webhookLatency, bareVotifier, bareWebhook].map(summarize)
report(`Deliveries drained: ${VOTES * 2} a round (v2 + webhook, ${SERVERS} servers, ${RECEIVERS}+${RECEIVERS} loopback receivers), concurrency ${concurrency}`, rows)
report(`Vote → delivery at idle: ${LATENCY_VOTES} votes POSTed to the real site one at a time, ${IDLE_MS} ms apart`, [
  { measure: 'vote→Votifier p50 ms', votelist: fmt(lv.p50), bare: fmt(bv.p50) },
  { measure: 'vote→Votifier p99 ms', votelist: fmt(lv.p99), bare: fmt(bv.p99) },
  { measure: 'vote→webhook p50 ms', votelist: fmt(lw.p50), bare: fmt(bw.p50) },
  { measure: 'vote→webhook p99 ms', votelist: fmt(lw.p99), bare: fmt(bw.p99) },
])
console.log(`median CPU ratio (bare µs per send ÷ site µs per delivery): ${fmt(median(cpuRatios))}`)
console.log(`not delivered: ${undelivered} of ${ROUNDS * VOTES * 2}; the site stopped with code ${stopped}`)
const against = `bare ${fmt(median(bareRates), 0)} sends/s`
const met = [
  target({ name: 'throughput ratio', value: median(ratios), op: '>=', goal: 0.6, against }),
  target({ name: 'vote→Votifier p99 at idle', value: lv.p99, op: '<', goal: 10, unit: 'ms', against: `bare ${fmt(bv.p99)} ms` }),
  target({ name: 'vote→webhook p99 at idle', value: lw.p99, op: '<', goal: 10, unit: 'ms', against: `bare ${fmt(bw.p99)} ms` }),
].every(Boolean)

for (const r of [...v2, ...hooks]) r.stop()
cleanupTemp()
process.exit(met && undelivered === 0 && stopped === 0 ? 0 : 1)
