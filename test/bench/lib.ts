import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// Shared measuring tools for the benchmarks. Figures are reported as ratios against a bare
// baseline measured in the same run, because the machines are noisy.

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i]
}

export function summarize(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b)
  return { n: s.length, p50: percentile(s, 50), p90: percentile(s, 90), p99: percentile(s, 99), max: s[s.length - 1], mean: s.reduce((a, b) => a + b, 0) / (s.length || 1) }
}

// The middle value: what every bench judges its rounds by.
export const median = (xs: number[]) => summarize(xs).p50

// Times `fn` `n` times after `warmup` untimed runs; milliseconds per call.
export async function timeEach(n: number, fn: (i: number) => unknown, warmup = Math.min(50, n)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i)
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await fn(i)
    out.push(performance.now() - t)
  }
  return out
}

export interface WrkResult {
  requestsPerSec: number
  p50Ms: number
  p99Ms: number
  requests: number
  errors: number
  stealPct: number // CPU time the hypervisor took from this VM during the run, % of all CPU time
}

// A memory figure of a process from /proc/<pid>/status, in kB: VmRSS (resident now) or VmHWM
// (its peak).
export const memoryKb = (field: 'VmRSS' | 'VmHWM', pid: number | 'self' = 'self') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])

// The machine's CPU counters (/proc/stat, first line): steal is time the hypervisor ran someone
// else while this VM had work. Tail latencies on a shared VM follow it, so benchmarks show it.
export function cpuTicks(): { steal: number; idle: number; total: number } | null {
  try {
    const f = readFileSync('/proc/stat', 'utf8')
    const n = f.slice(0, f.indexOf('\n')).trim().split(/\s+/).slice(1).map(Number)
    return { steal: n[7] ?? 0, idle: n[3] + (n[4] ?? 0), total: n.reduce((a, b) => a + b, 0) }
  } catch {
    return null
  }
}

// Since `before` (cpuTicks()): the share of all CPU time the hypervisor took (steal) and the
// share this VM's processes used (busy), in %.
export function cpuSince(before: ReturnType<typeof cpuTicks>): { stealPct: number; busyPct: number } {
  const after = cpuTicks()
  if (!before || !after || after.total === before.total) return { stealPct: NaN, busyPct: NaN }
  const total = after.total - before.total
  const steal = after.steal - before.steal
  return { stealPct: (100 * steal) / total, busyPct: (100 * (total - steal - (after.idle - before.idle))) / total }
}

const toMs = (v: string) => {
  const m = /^([\d.]+)(us|ms|s)$/.exec(v.trim())
  if (!m) return NaN
  return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1)
}

// Load with wrk (Debian package `wrk`): `connections` keep-alive connections for `seconds`.
// `args` go to the script's init().
export async function wrk(url: string, opts: { connections: number; seconds: number; threads?: number; headers?: Record<string, string>; script?: string; args?: string[] }): Promise<WrkResult> {
  if (!Bun.which('wrk')) throw new Error('wrk is not installed (Debian: apt-get install -y wrk)')
  const args = ['wrk', '--latency', `-t${opts.threads ?? 1}`, `-c${opts.connections}`, `-d${opts.seconds}s`]
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}: ${v}`)
  if (opts.script) args.push('-s', opts.script)
  args.push(url)
  if (opts.args) args.push('--', ...opts.args)
  const ticks = cpuTicks()
  const p = Bun.spawn(args, { stdout: 'pipe', stderr: 'pipe' })
  const out = await new Response(p.stdout).text()
  const { stealPct } = cpuSince(ticks)
  if ((await p.exited) !== 0) throw new Error(`wrk failed: ${await new Response(p.stderr).text()}`)
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
  const p50 = toMs(/\s50%\s+(\S+)/.exec(out)?.[1] ?? '')
  const p99 = toMs(/\s99%\s+(\S+)/.exec(out)?.[1] ?? '')
  const requests = Number(/(\d+) requests in/.exec(out)?.[1])
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0)
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  const errors = non2xx + (sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0)
  return { requestsPerSec: rps, p50Ms: p50, p99Ms: p99, requests, errors, stealPct }
}

export const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : String(n))

export function report(title: string, rows: Record<string, string | number>[]) {
  console.log(`\n${title}`)
  console.table(rows)
}

// The wrk script of the check benchmarks, written into `dir`: each request asks for one of the
// players player_0 … player_{pseudos - 1} at random, with one of the keys at random.
export function writeCheckScript(dir: string, pseudos: number, keys: string[]): string {
  const path = join(dir, 'check.lua')
  writeFileSync(path, `local names = {}
for i = 0, ${pseudos - 1} do names[#names + 1] = "player_" .. i end
local keys = { ${keys.map((k) => JSON.stringify(k)).join(', ')} }
math.randomseed(42)
request = function()
  return wrk.format("GET", "/api/v1/votes/check?pseudo=" .. names[math.random(#names)], { ["X-Api-Key"] = keys[math.random(#keys)] })
end
`)
  return path
}

// One measured figure against the target. Each benchmark calls this for every figure it
// is judged by; the line it prints (`TARGET {...}`) is collected by run.ts, which prints every
// figure beside its target at the end. Returns whether the target is met.
export interface Target {
  name: string
  value: number
  goal: number
  // '>=' for ratios and rates that must reach the goal, '<' / '<=' for latencies and sizes
  op: '>=' | '<' | '<='
  unit?: string
  // what the figure is measured against, e.g. "bare 28,760 req/s"
  against?: string
}

export function target(t: Target): boolean {
  const met = t.op === '>=' ? t.value >= t.goal : t.op === '<' ? t.value < t.goal : t.value <= t.goal
  console.log(`TARGET ${JSON.stringify({ ...t, met })}`)
  return met
}

// A wrk script, written into `dir`, that sends `perSecond` requests a second in all (one wrk
// thread, over all its connections) instead of as many as the connections allow: each request
// takes the next slot of a fixed schedule and waits for it (wrk's delay(), clock from LuaJIT's
// FFI). When the site falls behind (a stall), the connections send without waiting until the
// schedule is caught up, as visitors keep coming meanwhile; wrk's rate shows what was held. wrk
// times each request from its sending, so the time a late request spent waiting for a free
// connection is not in its latency. `body` defines request() (and init() if needed), or
// dofile()s a script that does.
export function writePacedScript(dir: string, name: string, perSecond: number, body: string): string {
  const path = join(dir, `${name}.lua`)
  writeFileSync(path, `local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } paced_timespec;
int clock_gettime(int clk, paced_timespec *tp);
]]
local ts = ffi.new("paced_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end
local period = ${1000 / perSecond}
local slot = nil
delay = function()
  local t = now_ms()
  if slot == nil then slot = t end
  slot = slot + period
  if slot <= t then return 0 end
  return math.floor(slot - t)
end
${body}
`)
  return path
}

// CPU time (user + system) a process has used so far, in seconds (/proc/<pid>/stat; Linux counts
// it in ticks of 1/100 s).
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
