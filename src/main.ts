import { runCli } from './cli.ts'

const code = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
  cwd: process.cwd(),
})
// Explicit: some plugins keep timers alive that would otherwise hold the process open.
process.exit(code)
