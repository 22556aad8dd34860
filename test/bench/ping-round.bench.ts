// One ping round over 2,000 loopback peers (a status responder on 2,000 ports of 127.0.0.1, in
// its own process): the round's wall time (ping, parse, write status, samples, rollups and the
// global series) and the peak RSS of the pinging process. Baseline: a bare TCP connect, write the
// same handshake, read the first bytes, close — same peers, same concurrency.
import { writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { createUser } from '../../src/accounts/service.ts'
import { handshake } from '../../src/ping/java-ping.ts'
import { runPingRound, spreadOut } from '../../src/stats/round.ts'
import { createServer } from '../../src/servers/service.ts'
import { cleanupTemp, testRuntime } from '../helpers.ts'
import { fmt, memoryKb, report, summarize } from './lib.ts'

const PEERS = 2000
const RUNS = 5

// Writing 5 to clear_refs resets the peak RSS (VmHWM) to the current RSS (Linux ≥ 4.0).
const resetPeak = () => { try { writeFileSync('/proc/self/clear_refs', '5') } catch { /* peak then includes setup */ } }

const responder = Bun.spawn(['bun', join(import.meta.dir, 'slp-responder.ts'), String(PEERS)], { stdout: 'pipe', stderr: 'inherit' })
const reader = responder.stdout.getReader()
let line = ''
while (!line.includes('\n')) line += new TextDecoder().decode((await reader.read()).value)
const ports: number[] = JSON.parse(line)

const rt = testRuntime({ network: { allow_private_targets: true }, stats: { ping_interval_seconds: 300 } })
const owner = await createUser(rt, { email: 'bench@example.com', password: 'correct horse battery' })
for (const [i, port] of ports.entries()) await createServer(rt, owner.id, { name: `Peer ${i}`, host: '127.0.0.1', port, modes: [rt.config.servers.modes[i % 18]] })
const concurrency = rt.config.stats.ping_concurrency

// Bare baseline: connect, send the handshake and status request, wait for the first bytes.
function bare(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port })
    const done = (ok: boolean) => { s.destroy(); resolve(ok) }
    s.on('connect', () => s.write(handshake('127.0.0.1', port)))
    s.once('data', () => done(true))
    s.on('error', () => done(false))
  })
}

const rounds: number[] = []
const baselines: number[] = []
const peaks: number[] = []
const before: number[] = []
let up = 0
for (let i = 0; i < RUNS; i++) {
  let t = performance.now()
  const ok = await spreadOut(ports, bare, { concurrency, spreadMs: 0 })
  baselines.push(performance.now() - t)
  if (ok.some((x) => !x)) throw new Error('baseline: a peer did not answer')
  rt.clock.advance(300_000)
  resetPeak()
  before.push(memoryKb('VmRSS') / 1024)
  t = performance.now()
  const r = await runPingRound(rt, rt.clock.now(), { spreadMs: 0 })
  rounds.push(performance.now() - t)
  peaks.push(memoryKb('VmHWM') / 1024)
  up = r!.up
}
responder.kill()
const samples = (rt.db.query('SELECT count(*) AS n FROM ping_sample').get() as { n: number }).n
const round = summarize(rounds)
const base = summarize(baselines)
report(`ping round over ${PEERS} loopback peers (concurrency ${concurrency}, no spread, ${RUNS} runs; ${up}/${PEERS} up; ${samples} samples written)`, [
  { measure: 'round (ping + store)', p50_ms: fmt(round.p50, 0), max_ms: fmt(round.max, 0) },
  { measure: 'baseline (bare TCP exchange)', p50_ms: fmt(base.p50, 0), max_ms: fmt(base.max, 0) },
  { measure: 'ratio round / baseline', p50_ms: fmt(round.p50 / base.p50), max_ms: '' },
  { measure: 'RSS when a round starts (MB)', p50_ms: fmt(summarize(before).p50, 0), max_ms: fmt(Math.max(...before), 0) },
  { measure: 'peak RSS during a round (MB)', p50_ms: fmt(summarize(peaks).p50, 0), max_ms: fmt(Math.max(...peaks), 0) },
])
cleanupTemp()
process.exit(up === PEERS ? 0 : 1)
