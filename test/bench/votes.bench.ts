// Votes accepted per second through the real HTTP path (the site started as its own process with
// `bun src/main.ts serve`, captcha off: JSON POST /serveur/{slug}/voter → origin check, per-address
// limit, pseudo rules, interval checks by pseudo and address, the vote transaction with its
// month counters), against a bare Bun.serve doing one SQLite insert per request. Both are
// measured in the same run, alternating, each after a short warm-up; the figure is the ratio.
import { join } from 'node:path'
import { loadConfig } from '../../src/config/load.ts'
import { memoryLogger } from '../../src/log.ts'
import { cleanupTemp, seedServer, sqliteSite, tempDir } from '../helpers.ts'
import { startServer, stopServer, writeLoadConfig } from '../real-server.ts'
import { fmt, median, report, target, wrk, type WrkResult } from './lib.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const SECONDS = 5
const CONNECTIONS = 32
const script = join(import.meta.dir, 'vote-post.lua')

const dir = tempDir('votelist-bench-')
const configPath = writeLoadConfig(dir)
// Two listed servers per round, one to warm up on and one to measure: the vote interval is per
// server, so every run votes with fresh pseudos and addresses and none is refused.
const rt = sqliteSite(loadConfig(configPath), { log: memoryLogger() })
const slugs: string[] = []
for (let i = 0; i < ROUNDS * 2; i++) slugs.push((await seedServer(rt, { name: `Bench ${i}` })).server.slug)
rt.db.close()

async function bare() {
  const proc = Bun.spawn(['bun', join(import.meta.dir, 'bare-vote-server.ts'), dir], { stdout: 'pipe', stderr: 'inherit' })
  const port = Number(new TextDecoder().decode((await proc.stdout.getReader().read()).value).trim())
  return { url: `http://127.0.0.1:${port}/`, stop: async () => { proc.kill('SIGTERM'); await proc.exited } }
}

const accepted = (r: WrkResult) => (r.requests - r.errors) / SECONDS
const rows: Record<string, string | number>[] = []
const ratios: number[] = []
const p99s: number[] = []
const bareRates: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  const baseline = await bare()
  await wrk(baseline.url, { connections: CONNECTIONS, seconds: 1, script })
  const b = await wrk(baseline.url, { connections: CONNECTIONS, seconds: SECONDS, script })
  await baseline.stop()

  const site = await startServer(configPath)
  await wrk(`${site.url}/serveur/${slugs[round * 2]}/voter`, { connections: CONNECTIONS, seconds: 1, script })
  const s = await wrk(`${site.url}/serveur/${slugs[round * 2 + 1]}/voter`, { connections: CONNECTIONS, seconds: SECONDS, script })
  await stopServer(site)
  if (s.errors) throw new Error(`the site refused ${s.errors} votes: the benchmark must only send valid ones`)

  ratios.push(accepted(s) / accepted(b))
  p99s.push(s.p99Ms)
  bareRates.push(accepted(b))
  rows.push({
    round: round + 1, 'bare insert /s': fmt(accepted(b), 0), 'site votes /s': fmt(accepted(s), 0), ratio: fmt(ratios[round]),
    'bare p50 ms': fmt(b.p50Ms), 'bare p99 ms': fmt(b.p99Ms), 'site p50 ms': fmt(s.p50Ms), 'site p99 ms': fmt(s.p99Ms),
  })
}
report(`Votes accepted per second (${CONNECTIONS} connections, ${SECONDS} s per run, captcha off)`, rows)
const against = `bare ${fmt(median(bareRates), 0)} inserts/s`
const met = [
  target({ name: 'throughput ratio', value: median(ratios), op: '>=', goal: 0.8, against }),
  target({ name: `p99 at ${CONNECTIONS} connections`, value: median(p99s), op: '<', goal: 10, unit: 'ms', against }),
].every(Boolean)
cleanupTemp()
process.exit(met ? 0 : 1)
