import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import { use, type StoreWrites, type TxScript } from '../db/store.ts'
import type { Scheduler } from '../jobs/scheduler.ts'
import type { Logger } from '../log.ts'
import { iconFromFavicon } from '../media/icon.ts'
import { pingServer, type PingDns, type PingStatus } from '../ping/pinger.ts'
import type { PingTarget, ServersRepo } from '../servers/repo.ts'
import { scopesOfServer } from './history.ts'
import { DAY, type Measurement, type StatsRepo } from './repo.ts'

interface StatsTx {
  stats: StatsRepo
}

export interface RoundDeps {
  config: Config
  clock: Clock
  log: Logger
  store: StatsTx & StoreWrites<StatsTx> & { servers: ServersRepo }
}

export interface RoundOptions {
  // Pings start at random offsets inside [0, spreadMs) so a round is not one burst of connections
  // (default: the first half of the interval). Benchmarks and tests pass 0.
  spreadMs?: number
  dns?: PingDns
  signal?: AbortSignal
}

export interface RoundReport {
  t: number
  servers: number
  up: number
  players: number
  durationMs: number
}

// Resolves after `ms`, or once `signal` is aborted (at once when it already is).
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })

// Runs `fn` over every item, each no earlier than its random offset in the spread, with at most
// `concurrency` in flight. Items not started when `signal` aborts have no result.
export async function spreadOut<T, R>(items: T[], fn: (item: T) => Promise<R>, opts: { concurrency: number; spreadMs: number; signal?: AbortSignal }): Promise<(R | undefined)[]> {
  const results: (R | undefined)[] = new Array(items.length)
  const order = items.map((_, i) => ({ i, at: Math.random() * opts.spreadMs })).sort((a, b) => a.at - b.at)
  const started = performance.now()
  const running = new Set<Promise<void>>()
  for (const { i, at } of order) {
    const wait = at - (performance.now() - started)
    if (wait > 0) await sleep(wait, opts.signal)
    while (running.size >= opts.concurrency) await Promise.race(running)
    if (opts.signal?.aborted) break
    const p: Promise<void> = fn(items[i]).then((r) => { results[i] = r }).finally(() => running.delete(p))
    running.add(p)
  }
  await Promise.all(running)
  return results
}

// A round in one transaction: each server's measurement and rollups, then each global scope's sum
// over the servers measured in it.
export function* recordRound(tx: StatsTx, t: number, targets: PingTarget[], measured: Measurement[]): TxScript<void> {
  const scopes = new Map<string, { players: number; servers: number; up: number }>()
  for (const [i, m] of measured.entries()) {
    if (!(yield* use(tx.stats.recordMeasurement(t, m)))) continue
    if (m.icon !== undefined) yield* use(tx.stats.recordIcon(m.serverNum, m.icon, m.at))
    for (const scope of scopesOfServer(targets[i].edition, targets[i].modes)) {
      const s = scopes.get(scope) ?? { players: 0, servers: 0, up: 0 }
      s.servers++
      if (m.status.online) {
        s.up++
        s.players += m.status.playersOnline
      }
      scopes.set(scope, s)
    }
  }
  for (const [scope, sum] of scopes) yield* use(tx.stats.recordGlobal(scope, t, sum))
}

// One round over every listed server. Its measurements are stamped with the round's start (the
// multiple of the interval that `now` falls in). A round cut short by a stop records nothing, so
// the global sums never cover only part of the servers.
export async function runPingRound(deps: RoundDeps, now: number, opts: RoundOptions = {}): Promise<RoundReport | null> {
  const { stats: cfg, network } = deps.config
  const intervalMs = cfg.ping_interval_seconds * 1000
  const t = now - (now % intervalMs)
  const started = performance.now()
  const targets = await deps.store.servers.pingTargets()
  const pingOpts = { timeoutMs: cfg.ping_timeout_seconds * 1000, allowPrivate: network.allow_private_targets, dns: opts.dns }
  const results = await spreadOut(targets, async (target): Promise<{ status: PingStatus; at: number }> => {
    const status = await pingServer(target, pingOpts)
    return { status, at: deps.clock.now() }
  }, { concurrency: cfg.ping_concurrency, spreadMs: opts.spreadMs ?? intervalMs / 2, signal: opts.signal })
  if (opts.signal?.aborted) return null
  // An answer without a valid icon removes the one kept (the game would show none either); a
  // server that did not answer keeps its icon, as it keeps its MOTD. Checked here, outside the
  // write transaction.
  const measured = results.map((r, i): Measurement => ({
    serverNum: targets[i].num, serverId: targets[i].id, status: r!.status, at: r!.at,
    ...(r!.status.online && { icon: iconFromFavicon(r!.status.favicon) }),
  }))
  const pingsMs = Math.round(performance.now() - started)
  await deps.store.write(function* (tx) {
    yield* recordRound(tx, t, targets, measured)
    const up = measured.filter((m) => m.status.online).length
    yield* use(tx.stats.recordLastRound({ t, servers: measured.length, up, durationMs: pingsMs, finishedAt: deps.clock.now() }))
  })
  const report = {
    t, servers: measured.length, up: measured.filter((m) => m.status.online).length,
    players: measured.reduce((n, m) => n + m.status.playersOnline, 0), durationMs: Math.round(performance.now() - started),
  }
  deps.log.info('ping round', { ...report, t: new Date(t).toISOString() })
  return report
}

// Ping rounds on multiples of the interval (UTC-aligned, so every server's samples share the same
// t), and the hourly retention of raw samples; each once per period across the site's instances.
export function registerStatsWork(scheduler: Scheduler, deps: RoundDeps): void {
  const { ping_interval_seconds: interval, raw_retention_days: keptDays } = deps.config.stats
  scheduler.every('stats.ping', interval * 1000, (now, signal) => runPingRound(deps, now, { signal }), { align: true, once: true, title: 'Ping round, with its hourly and daily rollups' })
  scheduler.every('stats.retention', 3600_000, async (now) => {
    const deleted = await purgeSamplesBefore(deps, now - keptDays * DAY)
    if (deleted) deps.log.info('purged raw ping samples', { deleted, keptDays })
  }, { once: true, title: 'Retention of raw ping samples' })
}

// Deletes raw and global samples older than `cutoff`, one day per transaction so that a large
// backlog never holds the write lock long. Returns the rows deleted.
export async function purgeSamplesBefore(deps: Pick<RoundDeps, 'store'>, cutoff: number): Promise<number> {
  const oldest = await deps.store.stats.oldestSample()
  if (oldest === null) return 0
  let deleted = 0
  for (let from = oldest; from < cutoff; from += DAY) {
    const to = Math.min(from + DAY, cutoff)
    deleted += await deps.store.write((tx) => use(tx.stats.purgeSamples(from, to)))
  }
  return deleted
}
