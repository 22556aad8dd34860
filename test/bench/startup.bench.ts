// Start-up of the compiled binary: time from spawn to the first 200 of /api/v1/health, and the
// resident memory once idle (one second after that answer). Baseline: a bare Bun.serve compiled
// the same way, started the same way, in the same run. votelist's fresh start includes creating
// and migrating its database. Judged: health p50 under 60 ms and idle RSS at most 55 MB, fresh
// and existing database. Also shown, not judged: the time to the first answer through the
// framework (the global statistics, asked right after health, which the server answers itself),
// and the RSS after a first round of pages (home, dashboard, API reference), which is what a site
// that has served holds. BENCH_ROUNDS: starts of each (default 15).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fmt, memoryKb, report, summarize, target } from './lib.ts'

const root = join(import.meta.dir, '../..')
const work = mkdtempSync(join(tmpdir(), 'votelist-startup-'))
const RUNS = Number(process.env.BENCH_ROUNDS ?? 15)
const PAGES = ['/', '/dashboard', '/api/docs']
const FIRST_API = '/api/v1/stats/global'

function sh(cmd: string[], cwd = root) {
  const r = Bun.spawnSync(cmd, { cwd, stdout: 'pipe', stderr: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} failed: ${r.stderr.toString()}`)
}

sh([process.execPath, 'run', 'build'])
const votelist = join(root, 'dist/votelist')
writeFileSync(join(work, 'bare.ts'), `const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ ok: true }) })
console.error('listening {"url":"' + s.url.href + '"}')
process.on('SIGTERM', () => { s.stop(); process.exit(0) })
`)
const bare = join(work, 'bare')
sh([process.execPath, 'build', '--compile', '--bytecode', '--format', 'esm', '--no-compile-autoload-dotenv', '--no-compile-autoload-bunfig', '--outfile', bare, join(work, 'bare.ts')])

// One start: spawn, wait for the logged address, GET health (for votelist, then the global
// statistics); then idle a second and read RSS; for votelist, ask for the pages, idle a second
// and read RSS again.
async function start(cmd: string[], cwd: string, pages: string[] = []) {
  const t0 = performance.now()
  const p = Bun.spawn(cmd, { cwd, stdout: 'ignore', stderr: 'pipe' })
  const reader = p.stderr.getReader()
  let text = ''
  let url: string | undefined
  while (!url) {
    const { done, value } = await reader.read()
    if (done) throw new Error(`${cmd[0]} exited early: ${text}`)
    text += new TextDecoder().decode(value)
    url = /"url":"([^"]+)"/.exec(text)?.[1]
  }
  const health = await fetch(new URL('/api/v1/health', url))
  const ms = performance.now() - t0
  if (health.status !== 200) throw new Error(`health answered ${health.status}`)
  let api = NaN
  if (pages.length) {
    const r = await fetch(new URL(FIRST_API, url))
    await r.arrayBuffer()
    api = performance.now() - t0
    if (r.status !== 200) throw new Error(`${FIRST_API} answered ${r.status}`)
  }
  await Bun.sleep(1000)
  const rss = memoryKb('VmRSS', p.pid) / 1024
  for (const path of pages) {
    const r = await fetch(new URL(path, url), { headers: { accept: 'text/html' } })
    await r.arrayBuffer()
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`)
  }
  if (pages.length) await Bun.sleep(1000)
  const served = memoryKb('VmRSS', p.pid) / 1024
  p.kill('SIGTERM')
  if ((await p.exited) !== 0) throw new Error(`${cmd[0]} did not exit cleanly`)
  return { ms, api, rss, served }
}

const results: Record<string, { ms: number[]; api: number[]; rss: number[]; served: number[] }> = {
  bare: { ms: [], api: [], rss: [], served: [] }, fresh: { ms: [], api: [], rss: [], served: [] }, existing: { ms: [], api: [], rss: [], served: [] },
}
const existingDir = mkdtempSync(join(work, 'existing-'))
writeFileSync(join(existingDir, 'votelist.toml'), '[http]\nhost = "127.0.0.1"\nport = 0\n')
for (let i = 0; i < RUNS; i++) {
  const b = await start([bare], work)
  const freshDir = mkdtempSync(join(work, 'fresh-'))
  writeFileSync(join(freshDir, 'votelist.toml'), '[http]\nhost = "127.0.0.1"\nport = 0\n')
  const f = await start([votelist, 'serve', '--config', join(freshDir, 'votelist.toml')], freshDir, PAGES)
  const e = await start([votelist, 'serve', '--config', join(existingDir, 'votelist.toml')], existingDir, PAGES)
  for (const [k, r] of [['bare', b], ['fresh', f], ['existing', e]] as const) {
    results[k].ms.push(r.ms)
    results[k].api.push(r.api)
    results[k].rss.push(r.rss)
    results[k].served.push(r.served)
  }
}
const base = { ms: summarize(results.bare.ms).p50, rss: summarize(results.bare.rss).p50 }
report(`start-up, ${RUNS} runs each (p50; ratio = votelist / bare Bun.serve binary)`, Object.entries(results).map(([name, r]) => {
  const ms = summarize(r.ms)
  const rss = summarize(r.rss)
  return {
    run: name === 'bare' ? 'bare Bun.serve' : `votelist, ${name} database`,
    'health p50 ms': fmt(ms.p50, 1), 'health max ms': fmt(ms.max, 1), 'vs bare': fmt(ms.p50 / base.ms),
    'first API answer p50 ms': name === 'bare' ? '' : fmt(summarize(r.api).p50, 1),
    'idle RSS MB': fmt(rss.p50, 1), 'RSS vs bare': fmt(rss.p50 / base.rss),
    'RSS after pages MB': name === 'bare' ? '' : fmt(summarize(r.served).p50, 1),
  }
}))
const against = `bare Bun.serve binary ${fmt(base.ms, 1)} ms, ${fmt(base.rss, 1)} MB`
for (const name of ['fresh', 'existing'] as const) {
  target({ name: `health p50, ${name} database`, value: summarize(results[name].ms).p50, op: '<', goal: 60, unit: 'ms', against })
  target({ name: `idle RSS p50, ${name} database`, value: summarize(results[name].rss).p50, op: '<=', goal: 55, unit: 'MB', against })
}
rmSync(work, { recursive: true, force: true })
