import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { atFirstUse } from '../../src/first-use.ts'
import { mediaRoutes } from '../../src/media/routes.ts'
import { call, cleanupTemp, seedServer, tempDir, testRuntime } from '../helpers.ts'
import { png } from './images.ts'

afterAll(cleanupTemp)

// The default icon is read when it is first needed, not at start: a site whose file cannot be
// read answers an error for it, and serves it as soon as the file can be read, without a restart.
test('the default icon is read at its first request, and read again after a failed read', async () => {
  const rt = testRuntime()
  const { server } = await seedServer(rt)
  const file = join(tempDir(), 'default-icon.png')
  const routes = mediaRoutes(rt, file)
  const path = `/api/v1/servers/${server.slug}/icon.png`
  expect((await call(routes, 'GET', path)).status).toBe(500)

  const icon = png(16, 16)
  await Bun.write(file, icon)
  const served = await call(routes, 'GET', path)
  expect(served.status).toBe(200)
  expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(icon))).toBe(true)
  const etag = served.headers.get('etag')!
  expect((await call(routes, 'GET', path, { headers: { 'if-none-match': etag } })).status).toBe(304)

  // Read once: what was read stays the answer while the process lives.
  await Bun.write(file, png(8, 8))
  const again = await call(routes, 'GET', path)
  expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(icon))).toBe(true)
  expect(again.headers.get('etag')).toBe(etag)
})

test('atFirstUse makes its value once for callers at the same moment, and again after a failure', async () => {
  let calls = 0
  let fail = true
  const value = atFirstUse(async () => {
    calls++
    await Bun.sleep(0)
    if (fail) throw new Error('not yet')
    return calls
  })
  const first = await Promise.allSettled([value(), value()])
  expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected'])
  expect(calls).toBe(1)
  fail = false
  expect(await Promise.all([value(), value()])).toEqual([2, 2])
  expect(await value()).toBe(2)
  expect(calls).toBe(2)
})
