import { afterAll, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { healthUrl } from '../../src/cli-health.ts'
import { VERSION } from '../../src/version.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { cli, killChildren, mainScript, runChild, spawnChild } from '../spawn.ts'

afterAll(() => { killChildren(); cleanupTemp() })

// A port nothing listens on now (the kernel's pick, released).
function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

function config(port: number, host = '127.0.0.1'): string {
  const path = join(tempDir(), 'votelist.toml')
  writeFileSync(path, `[http]\nhost = "${host}"\nport = ${port}\n[votes]\ncaptcha = "off"\n`)
  return path
}

test('votelist health asks the configured address: the version once serve answers, exit 1 and why before and after', async () => {
  const port = freePort()
  const path = config(port)
  const url = `http://127.0.0.1:${port}/api/v1/health`

  const before = await cli(['health', '--config', path])
  expect(before.code).toBe(1)
  expect(before.stdout).toBe('')
  expect(before.stderr).toStartWith(`votelist health: no answer from ${url}: connection refused: the site is stopped, still starting`)
  expect(before.stderr.split('\n')).toHaveLength(1)

  const serve = spawnChild([process.execPath, mainScript, 'serve', '--config', path])
  await serve.waitFor('err', /votelist listening/)
  expect(await cli(['health', '--config', path])).toEqual({ code: 0, stdout: VERSION, stderr: '' })
  expect(await cli(['--config', path, 'health'])).toEqual({ code: 0, stdout: VERSION, stderr: '' })

  serve.proc.kill('SIGTERM')
  expect(await serve.exited).toBe(0)
  expect((await cli(['health', '--config', path])).code).toBe(1)
})

test('another program on the port is not taken for the site', async () => {
  const other = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('<h1>It works!</h1>', { headers: { 'content-type': 'text/html' } }) })
  try {
    const r = await cli(['health', '--config', config(other.port!)])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(`votelist health: http://127.0.0.1:${other.port}/api/v1/health answered HTTP 200 "<h1>It works!</h1>", not votelist's {"ok":true,"version":"…"}: another program listens on 127.0.0.1:${other.port}? (http.host / http.port)`)
  } finally {
    other.stop(true)
  }
})

test('http.port = 0 leaves no address to ask: exit 78, saying so', async () => {
  const path = config(0)
  const r = await cli(['health', '--config', path])
  expect(r.code).toBe(78)
  expect(r.stderr).toStartWith(`votelist health: http.port is 0 in ${path}: serve picks a free port at each start`)
})

test('a wildcard address is asked through loopback; one address, as it is', () => {
  expect(healthUrl('0.0.0.0', 8080)).toBe('http://127.0.0.1:8080/api/v1/health')
  expect(healthUrl('::', 8080)).toBe('http://[::1]:8080/api/v1/health')
  expect(healthUrl('[::]', 8080)).toBe('http://[::1]:8080/api/v1/health')
  expect(healthUrl('::1', 81)).toBe('http://[::1]:81/api/v1/health')
  expect(healthUrl('192.0.2.7', 8080)).toBe('http://192.0.2.7:8080/api/v1/health')
  expect(healthUrl('localhost', 8080)).toBe('http://localhost:8080/api/v1/health')
})

test('an http_proxy in the environment is not asked instead of the site', async () => {
  const site = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ ok: true, version: 'direct' }) })
  const proxy = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ ok: true, version: 'via the proxy' }) })
  try {
    const r = await runChild([process.execPath, mainScript, 'health', '--config', config(site.port!)], { env: { http_proxy: `http://127.0.0.1:${proxy.port}`, HTTP_PROXY: `http://127.0.0.1:${proxy.port}` } })
    expect(r).toEqual({ code: 0, stdout: 'direct', stderr: '' })
  } finally {
    site.stop(true)
    proxy.stop(true)
  }
})
