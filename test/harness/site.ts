// The real site (serveSite, the same start and stop as `votelist serve`) with two test-only
// additions, run as a child process by the stop and crash tests:
//   GET  /test/slow?ms=N            answers after N ms (a request in flight at stop time)
//   POST /test/jobs?ms=N&hang=A     enqueues a `test.slow` job that takes N ms, or never ends
//                                   while its attempt number is <= A (a job mid-run at a crash)
// Progress goes to stdout, one line per event, written synchronously so that a printed line
// happened before any later signal: request-start, job-start <id> <attempt>, job-done <id> <attempt>.
import { Elysia, t } from 'elysia'
import { writeSync } from 'node:fs'
import { loadConfig } from '../../src/config/load.ts'
import { createRuntime } from '../../src/runtime.ts'
import { serveSite } from '../../src/serve.ts'

const say = (line: string) => writeSync(1, line + '\n')
const config = loadConfig(process.argv[2])
const rt = createRuntime(config)

rt.queue.handle<{ ms: number; hang: number }>('test.slow', async (job) => {
  say(`job-start ${job.id} ${job.attempts}`)
  if (job.attempts <= job.payload.hang) await new Promise(() => {})
  await Bun.sleep(job.payload.ms)
  say(`job-done ${job.id} ${job.attempts}`)
})

await serveSite(rt, {
  extend: (app) => app.use(new Elysia({ name: 'test.harness' })
    .get('/test/slow', async ({ query }) => {
      say('request-start')
      await Bun.sleep(query.ms)
      return 'slow done'
    }, { query: t.Object({ ms: t.Numeric() }) })
    .post('/test/jobs', ({ query }) => ({ id: rt.queue.enqueue('test.slow', { ms: query.ms, hang: query.hang ?? 0 }) }), {
      query: t.Object({ ms: t.Numeric(), hang: t.Optional(t.Numeric()) }),
    })),
})
say('exited cleanly')
process.exit(0)
