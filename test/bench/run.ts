// Runs every benchmark under test/bench (files named *.bench.ts), one after another, each in its own
// process so they do not disturb each other. `bun run bench [substring]` runs the matching ones.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

const filter = process.argv[2] ?? ''
const files = readdirSync(import.meta.dir).filter((f) => f.endsWith('.bench.ts') && f.includes(filter)).sort()
if (!files.length) {
  console.error(`no benchmark matches "${filter}"`)
  process.exit(2)
}
let failed = 0
for (const f of files) {
  console.log(`\n=== ${f} ===`)
  const p = Bun.spawn(['bun', join(import.meta.dir, f)], { stdout: 'inherit', stderr: 'inherit' })
  if ((await p.exited) !== 0) failed++
}
process.exit(failed ? 1 : 0)
