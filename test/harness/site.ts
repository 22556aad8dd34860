// The real site (serveSite, the same start and stop as `votelist serve`) with two test-only
// additions, run as a child process by the stop and crash tests:
//   GET  /test/held                 answers once the process gets SIGUSR2 (a request in flight
//                                   at stop time, for as long as the test needs)
//   POST /test/jobs?held=1&hang=A   enqueues a `test.slow` job that ends once the process gets
//                                   SIGUSR2 (without held: at once), or never while its attempt
//                                   number is <= A (a job mid-run at a crash)
// Progress goes to stdout, one line per event, written synchronously so that a printed line
// happened before any later signal: request-start, job-start <id> <attempt>, job-done <id> <attempt>.
import { Elysia, t } from 'elysia'
import { writeSync } from 'node:fs'
import { loadConfig } from '../../src/config/load.ts'
import { openStore } from '../../src/runtime.ts'
import { serveSite } from '../../src/serve.ts'
import { createSite } from '../../src/site.ts'

const say = (line: string) => writeSync(1, line + '\n')
const config = loadConfig(process.argv[2])
const rt = createSite(await openStore(config))

// Held work ends when the test says so, never after a time a busy machine could overrun.
let release!: () => void
const released = new Promise<void>((r) => { release = r })
process.on('SIGUSR2', () => release())

rt.queue.handle<{ held: boolean; hang: number }>('test.slow', async (job) => {
  say(`job-start ${job.id} ${job.attempts}`)
  if (job.attempts <= job.payload.hang) await new Promise(() => {})
  if (job.payload.held) await released
  say(`job-done ${job.id} ${job.attempts}`)
})

await serveSite(rt, {
  extend: (app) => app.use(new Elysia({ name: 'test.harness' })
    .get('/test/held', async () => {
      say('request-start')
      await released
      return 'held done'
    })
    .post('/test/jobs', async ({ query }) => ({ id: await rt.store.jobs.enqueue({ kind: 'test.slow', payload: { held: query.held === 1, hang: query.hang ?? 0 } }, rt.clock.now()) }), {
      query: t.Object({ held: t.Optional(t.Numeric()), hang: t.Optional(t.Numeric()) }),
    })),
})
say('exited cleanly')
process.exit(0)
