import { afterAll, expect, test } from 'bun:test'
import { cleanupTemp, call, tempDir, testApp, testRuntime } from '../helpers.ts'
import { killChildren, listeningUrl, mainScript, spawnChild, writeSiteConfig } from '../spawn.ts'

afterAll(() => { killChildren(); cleanupTemp() })

// What a monitor or a load balancer reads: status, body and headers but those only a socket's
// answer has (the date, the length, the server's cache validator).
async function seen(r: Response) {
  const headers: Record<string, string> = {}
  r.headers.forEach((v, k) => { if (k !== 'date' && k !== 'etag' && k !== 'content-length') headers[k] = v })
  return { status: r.status, headers, body: await r.text() }
}

// The running site answers health from the HTTP server's own routes; it must answer exactly as
// the framework's route does in process (the reference, and what the API docs describe), for
// GET and HEAD, and leave every other method to the framework (405, naming GET and HEAD). A monitor may
// revalidate it with the ETag the server adds.
test('a served site answers health as the framework\'s route does, GET and HEAD; other methods are not allowed', async () => {
  const child = spawnChild([process.execPath, mainScript, 'serve', '--config', writeSiteConfig(tempDir())])
  const url = await listeningUrl(child)
  const app = await testApp(testRuntime())
  for (const method of ['GET', 'HEAD', 'POST']) {
    const served = await seen(await fetch(`${url}/api/v1/health`, { method }))
    const reference = await seen(await call(app, method, '/api/v1/health'))
    expect({ method, ...served }).toEqual({ method, ...reference })
    expect(served.status).toBe(method === 'POST' ? 405 : 200)
  }
  // The server's own answer, which the framework's is not: a cache validator, and 304 to it.
  const get = await fetch(`${url}/api/v1/health`)
  const etag = get.headers.get('etag')
  expect(etag).toMatch(/^"[0-9a-f]+"$/)
  expect(await get.json()).toMatchObject({ ok: true })
  expect((await fetch(`${url}/api/v1/health`, { headers: { 'if-none-match': etag! } })).status).toBe(304)
  child.proc.kill('SIGTERM')
  expect(await child.exited).toBe(0)
})
