import { afterAll, expect, test } from 'bun:test'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { killChildren, listeningUrl, mainScript, spawnChild, writeSiteConfig } from '../spawn.ts'

afterAll(() => { killChildren(); cleanupTemp() })

// log.level quiets the site's messages, not the two lines an administrator (and a script, a
// test, the CI smoke test) waits for: where it listens (with http.port = 0, the only way to know
// the port) and that it stopped.
for (const level of ['warn', 'error']) {
  test(`log.level = "${level}": the start line with the address and the stop line are still written`, async () => {
    const child = spawnChild([process.execPath, mainScript, 'serve', '--config', writeSiteConfig(tempDir(), `[log]\nlevel = "${level}"\n`)])
    const url = await listeningUrl(child)
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200)
    child.proc.kill('SIGTERM')
    expect(await child.exited).toBe(0)
    expect(child.err.filter((l) => / INFO /.test(l)).map((l) => l.replace(/^\S+ INFO (votelist listening|stopped).*$/, '$1'))).toEqual(['votelist listening', 'stopped'])
  })
}
