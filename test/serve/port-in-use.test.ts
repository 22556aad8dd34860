import { afterAll, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { killChildren, listeningUrl, mainScript, spawnChild, writeSiteConfig } from '../spawn.ts'

afterAll(() => { killChildren(); cleanupTemp() })

// Two real sites, each with its own database (so the instance lock cannot be what stops the
// second). With SO_REUSEPORT the second would start "listening" beside the first and the kernel
// would split the requests between two databases.
test('a second votelist serve on a port in use exits 1 with one line; the first keeps serving', async () => {
  const first = spawnChild([process.execPath, mainScript, 'serve', '--config', writeSiteConfig(tempDir())])
  const url = await listeningUrl(first)
  const port = Number(new URL(url).port)

  const dir = tempDir()
  const config = join(dir, 'votelist.toml')
  writeFileSync(config, `[http]\nhost = "127.0.0.1"\nport = ${port}\n[votes]\ncaptcha = "off"\n`)
  const second = spawnChild([process.execPath, mainScript, 'serve', '--config', config])
  const outcome = await Promise.race([
    second.exited.then((code) => ({ code })),
    // (Exiting first rejects this wait: the race is then the exit code's.)
    second.waitFor('err', /votelist listening/, 30_000).then(() => ({ listening: true }), () => new Promise<never>(() => {})),
  ])
  expect(outcome).toEqual({ code: 1 })
  expect(second.out).toEqual([])
  expect(second.err).toHaveLength(1)
  expect(second.err[0]).toStartWith(`votelist serve: cannot listen on 127.0.0.1:${port}: `)
  expect(second.err[0]).toEndWith('(http.host / http.port)')

  for (let i = 0; i < 10; i++) {
    const r = await fetch(`${url}/api/v1/health`)
    expect(r.status).toBe(200)
  }
  first.proc.kill('SIGTERM')
  expect(await first.exited).toBe(0)
})
