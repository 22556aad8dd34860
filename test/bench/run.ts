// Runs every benchmark under test/bench (files named *.bench.ts), one after another, each in its own
// process so they do not disturb each other. `bun run bench [substring]` runs the matching ones.
// At the end it prints every figure a benchmark is judged by beside its target (the `TARGET`
// lines the benchmarks print through lib.ts's target()).
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Target } from './lib.ts'

const filter = process.argv[2] ?? ''
const files = readdirSync(import.meta.dir).filter((f) => f.endsWith('.bench.ts') && f.includes(filter)).sort()
if (!files.length) {
  console.error(`no benchmark matches "${filter}"`)
  process.exit(2)
}
const targets: (Target & { met: boolean; bench: string })[] = []
let failed = 0
for (const f of files) {
  console.log(`\n=== ${f} ===`)
  const p = Bun.spawn(['bun', join(import.meta.dir, f)], { stdout: 'pipe', stderr: 'inherit' })
  // Pass the output through as it comes, keeping the TARGET lines for the summary.
  let pending = ''
  const decoder = new TextDecoder()
  const reader = p.stdout.getReader()
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    const text = decoder.decode(r.value, { stream: true })
    process.stdout.write(text)
    pending += text
    const lines = pending.split('\n')
    pending = lines.pop()!
    for (const line of lines) if (line.startsWith('TARGET ')) targets.push({ ...JSON.parse(line.slice(7)), bench: f.replace('.bench.ts', '') })
  }
  if ((await p.exited) !== 0) {
    failed++
    console.log(`${f} exited with an error`)
  }
}
if (targets.length) {
  const num = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2))
  console.log('\nEvery figure beside its target:')
  console.table(targets.map((t) => ({
    bench: t.bench, figure: t.name, value: `${num(t.value)}${t.unit ? ` ${t.unit}` : ''}`, target: `${t.op} ${num(t.goal)}${t.unit ? ` ${t.unit}` : ''}`,
    against: t.against ?? '', met: t.met ? 'yes' : 'NO',
  })))
  const missed = targets.filter((t) => !t.met).length
  console.log(`${targets.length - missed} of ${targets.length} targets met`)
  if (missed) failed++
}
process.exit(failed ? 1 : 0)
