// Delivery throughput and vote-to-delivery latency, against a bare baseline in the same run.
//
// votelist: 10,000 deliveries (5,000 votes on 16 servers, each with a Votifier v2 target and a
// webhook) queued in SQLite, then drained by the real job handler to loopback receivers (8 v2
// listeners, 8 webhook receivers). Latency at idle: with the scheduler running, one vote at a time,
// from recordVote() to the moment each receiver has the vote.
// Baseline: the same receivers and the same protocol clients called directly (no queue, no
// database, no gate), with the same concurrency.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createUser } from '../../src/accounts/service.ts'
import { parseConfig } from '../../src/config/load.ts'
import { webhookBody } from '../../src/deliveries/channel.ts'
import type { VoteEvent } from '../../src/deliveries/repo.ts'
import { memoryLogger } from '../../src/log.ts'
import { sendVotifierV2 } from '../../src/push/votifier-v2.ts'
import { createServer } from '../../src/servers/service.ts'
import { registerSiteWork } from '../../src/site.ts'
import { recordVote } from '../../src/votes/service.ts'
import { sendWebhook } from '../../src/webhooks/send-webhook.ts'
import { sqliteSite } from '../helpers.ts'
import { startVotifierReceiver } from '../push/votifier-receiver.ts'
import { startWebhookReceiver } from '../webhooks/webhook-receiver.ts'
import { fmt, report, summarize } from './lib.ts'

const VOTES = 5_000
const SERVERS = 16
const RECEIVERS = 8
const LATENCY_VOTES = 300
const SECRET = 'whsec_' + 'b'.repeat(43)

const dir = mkdtempSync(join(tmpdir(), 'votelist-bench-'))
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

// --- Throughput: 10,000 queued deliveries drained -----------------------------------------
for (let i = 0; i < VOTES; i++) await recordVote(rt, servers[i % SERVERS], `P${String(i).padStart(6, '0')}`, [address(i)])
const queued = (await rt.queue.pending()).total
// The production wiring: the scheduler's drain task, woken by every enqueue and woken job.
registerSiteWork(rt)
let t = performance.now()
rt.scheduler.start()
while (received() < queued) await Bun.sleep(1)
const drainMs = performance.now() - t
while ((await rt.queue.pending()).total > 0) await Bun.sleep(1)
const failed = rt.db.query(`SELECT count(*) AS n FROM delivery WHERE status != 'succeeded'`).get() as { n: number }
const deliveriesPerSec = queued / (drainMs / 1000)

// Baseline: the same sends, straight from `concurrency` loops.
const event = (i: number): VoteEvent => ({ server: { id: 's', slug: 's', name: 'S' }, vote: { id: `v${i}`, pseudo: `B${i}`, createdAt: Date.now() }, address: address(i), monthlyVotes: i })
const timeouts = { connectMs: config.deliveries.votifier_connect_timeout, readMs: config.deliveries.votifier_read_timeout }
const sendBare = (i: number) => (i % 2 === 0
  ? sendVotifierV2({ host: '127.0.0.1', address: '127.0.0.1', port: v2[(i >> 1) % RECEIVERS].port }, 'bench-token', { serviceName: config.site.service_name, username: `B${i}`, address: address(i), timestamp: Date.now() }, timeouts)
  : sendWebhook({ url: hooks[(i >> 1) % RECEIVERS].url(), secret: SECRET, deliveryId: `d${i}`, event: 'vote', body: webhookBody(event(i), 'vote') },
    { allowPrivate: true, timeoutMs: config.deliveries.webhook_timeout, now: Date.now }))
let next = 0
t = performance.now()
await Promise.all(Array.from({ length: concurrency }, async () => { while (next < queued) await sendBare(next++) }))
const bareMs = performance.now() - t
const barePerSec = queued / (bareMs / 1000)

// --- Latency at idle: one vote at a time, the scheduler running ------------------------------
const votifierLatency: number[] = []
const webhookLatency: number[] = []
const server = servers[0]
for (let i = 0; i < LATENCY_VOTES; i++) {
  const [vr, hr] = [v2[0], hooks[0]]
  const [nv, nh] = [vr.votes.length + 1, hr.received.length + 1]
  const start = performance.now()
  await recordVote(rt, server, `L${String(i).padStart(6, '0')}`, [address(VOTES + i)])
  await Promise.all([
    vr.waitVotes(nv).then(() => votifierLatency.push(performance.now() - start)),
    hr.waitFor(nh).then(() => webhookLatency.push(performance.now() - start)),
  ])
  await Bun.sleep(5) // idle between votes
}
await rt.scheduler.stop()
const bareVotifier: number[] = []
const bareWebhook: number[] = []
for (let i = 0; i < LATENCY_VOTES; i++) {
  const start = performance.now()
  await Promise.all([
    sendBare(2 * i).then(() => bareVotifier.push(performance.now() - start)),
    sendBare(2 * i + 1).then(() => bareWebhook.push(performance.now() - start)),
  ])
  await Bun.sleep(5)
}

const [lv, lw, bv, bw] = [votifierLatency, webhookLatency, bareVotifier, bareWebhook].map(summarize)
report(`Deliveries: ${queued} queued (v2 + webhook, ${SERVERS} servers, ${RECEIVERS}+${RECEIVERS} loopback receivers), concurrency ${concurrency}`, [
  { measure: 'deliveries/s', votelist: fmt(deliveriesPerSec, 0), bare: fmt(barePerSec, 0), ratio: fmt(deliveriesPerSec / barePerSec) },
  { measure: 'vote→Votifier p50 ms (idle)', votelist: fmt(lv.p50), bare: fmt(bv.p50), ratio: fmt(lv.p50 / bv.p50) },
  { measure: 'vote→Votifier p99 ms (idle)', votelist: fmt(lv.p99), bare: fmt(bv.p99), ratio: fmt(lv.p99 / bv.p99) },
  { measure: 'vote→webhook p50 ms (idle)', votelist: fmt(lw.p50), bare: fmt(bw.p50), ratio: fmt(lw.p50 / bw.p50) },
  { measure: 'vote→webhook p99 ms (idle)', votelist: fmt(lw.p99), bare: fmt(bw.p99), ratio: fmt(lw.p99 / bw.p99) },
])
console.log(`not delivered: ${failed.n} of ${queued}; drain ${fmt(drainMs / 1000)} s, bare ${fmt(bareMs / 1000)} s`)

for (const r of [...v2, ...hooks]) r.stop()
rt.db.close()
rmSync(dir, { recursive: true, force: true })
process.exit(failed.n === 0 ? 0 : 1)
