// Several real `votelist serve` processes (bun src/main.ts serve) on one throwaway PostgreSQL
// database, with a Votifier v2 listener and a webhook receiver on loopback for the deliveries of
// the one listed server. Votes are sent as the vote page sends them (JSON, one address each
// through X-Forwarded-For).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { recordVote } from '../../src/votes/service.ts'
import { seedServer, siteOn, tempDir, type BackendRuntime } from '../helpers.ts'
import { startVotifierReceiver } from '../push/votifier-receiver.ts'
import { startServer, type RunningServer } from '../real-server.ts'
import { startWebhookReceiver } from '../webhooks/webhook-receiver.ts'

export const WEBHOOK_SECRET = 'whsec_' + 'c'.repeat(43)
const VOTIFIER_TOKEN = 'cluster-token'

export interface ClusterOptions {
  keyedPerMinute?: number
  pingIntervalSeconds?: number
}

// The database (migrated, with an owner, a server listed on 127.0.0.1, its key and its two
// channels), the receivers, and the config every instance starts from.
export async function clusterSite(opts: ClusterOptions = {}) {
  const rt = await siteOn('postgres', { network: { allow_private_targets: true } }, Date.now())
  const votifier = startVotifierReceiver({ tokens: { MyServerList: VOTIFIER_TOKEN } })
  const webhook = startWebhookReceiver(WEBHOOK_SECRET)
  // Pings go to a port of 127.0.0.1 where nothing listens: the server is measured down, at once.
  const { server, key, owner } = await seedServer(rt, { name: 'Cluster Valley', host: '127.0.0.1', port: 9 })
  await rt.store.channels.putVotifier({ serverId: server.id, host: '127.0.0.1', port: votifier.port, protocol: 'v2', publicKey: null, token: VOTIFIER_TOKEN }, rt.clock.now())
  await rt.store.channels.putWebhook(server.id, webhook.url(), WEBHOOK_SECRET, rt.clock.now())
  const dir = tempDir()
  const configPath = join(dir, 'votelist.toml')
  writeFileSync(configPath, `
[http]
host = "127.0.0.1"
port = 0
trust_proxy = true
[database]
url = "${rt.config.database.url}"
[votes]
captcha = "off"
[limits]
vote_attempts_per_minute = 100000
public_per_minute = 100000
keyed_per_minute = ${opts.keyedPerMinute ?? 100_000}
[network]
allow_private_targets = true
[deliveries]
webhook_timeout = "10s"
votifier_connect_timeout = "1s"
votifier_read_timeout = "1s"
[jobs]
lease = "71s"
[stats]
ping_interval_seconds = ${opts.pingIntervalSeconds ?? 300}
ping_timeout_seconds = 1
`)
  const instances: RunningServer[] = []
  return {
    rt, server, key, owner, votifier, webhook, configPath, instances,
    async start(): Promise<RunningServer> {
      const s = await startServer(configPath, 60_000)
      instances.push(s)
      return s
    },
    // Every process still running is killed, the receivers closed (before the database is dropped).
    stop() {
      for (const s of instances) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL')
      votifier.stop()
      webhook.stop()
    },
    recordVote: (pseudo: string) => recordVote(rt, server, pseudo, ['203.0.113.1']),
  }
}
export type ClusterSite = Awaited<ReturnType<typeof clusterSite>>

export interface VoteAnswer {
  status: number
  body: any
}

// One vote through an instance, as the vote page sends it.
export async function vote(instance: RunningServer, slug: string, pseudo: string, address: string): Promise<VoteAnswer> {
  const r = await fetch(`${instance.url}/serveur/${slug}/voter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ pseudo }),
  })
  return { status: r.status, body: await r.json() }
}

// A distinct address for vote number i.
export const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`

// The lines an instance logged with this message, parsed.
export const logged = (instance: RunningServer, message: string) =>
  instance.log
    .map((line) => new RegExp(` INFO ${message} (\\{.*\\})$`).exec(line))
    .filter((m) => m !== null)
    .map((m) => JSON.parse(m[1]))

export type { BackendRuntime }
