import { afterAll, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { cli, killChildren, listeningUrl, mainScript, spawnChild, writeSiteConfig } from '../spawn.ts'

afterAll(() => { killChildren(); cleanupTemp() })

const MiB = 1024 * 1024
const status = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8')
const kb = (text: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)![1])

// 100 MiB streamed from one 1 MiB chunk: the test itself never holds the bodies.
function hugeBody(): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(MiB).fill(0x61)
  let sent = 0
  return new ReadableStream({
    pull(c) {
      if (sent === 100) return c.close()
      sent++
      c.enqueue(chunk)
    },
  })
}

async function send(url: string, headers: Record<string, string>, framing: 'length' | 'chunked') {
  const r = await fetch(url, {
    method: 'POST', body: hugeBody(), duplex: 'half',
    headers: framing === 'length' ? { ...headers, 'content-length': String(100 * MiB) } : headers,
  } as RequestInit)
  return { status: r.status, type: r.headers.get('content-type'), body: await r.text() }
}

test('10 + 10 concurrent 100 MiB posts to the vote form and the login: all 413, the site\'s memory stays flat', async () => {
  const dir = tempDir()
  const config = writeSiteConfig(dir)
  expect((await cli(['user', 'add', '--email', 'owner@example.com', '--password', 'correct horse battery', '--config', config])).code).toBe(0)
  expect((await cli(['server', 'add', '--owner', 'owner@example.com', '--name', 'Emerald Valley', '--host', 'play.example.com', '--config', config])).code).toBe(0)
  const site = spawnChild([process.execPath, mainScript, 'serve', '--config', config])
  const url = await listeningUrl(site)
  const pid = site.proc.pid
  // Warm the routes once, then start the peak (VmHWM) afresh.
  await fetch(`${url}/serveur/emerald-valley/voter`)
  await fetch(`${url}/api/v1/auth/login`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
  writeFileSync(`/proc/${pid}/clear_refs`, '5')
  const before = kb(status(pid), 'VmRSS')

  const form = { accept: 'text/html,*/*;q=0.8', 'content-type': 'application/x-www-form-urlencoded' }
  const json = { 'content-type': 'application/json' }
  for (const framing of ['length', 'chunked'] as const) {
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => send(`${url}/serveur/emerald-valley/voter`, form, framing)),
      ...Array.from({ length: 10 }, () => send(`${url}/api/v1/auth/login`, json, framing)),
    ])
    expect(answers.slice(0, 10).map((a) => ({ status: a.status, type: a.type, page: a.body.includes('<h1>Too much data</h1>') })))
      .toEqual(Array.from({ length: 10 }, () => ({ status: 413, type: 'text/html; charset=utf-8', page: true })))
    expect(answers.slice(10).map((a) => ({ status: a.status, body: JSON.parse(a.body).error.code })))
      .toEqual(Array.from({ length: 10 }, () => ({ status: 413, body: 'PAYLOAD_TOO_LARGE' })))
  }
  const peak = kb(status(pid), 'VmHWM')
  expect(peak - before).toBeLessThan(50 * 1024)

  // Still serving, and a normal login still works.
  const login = await fetch(`${url}/api/v1/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery' }) })
  expect(login.status).toBe(200)
  console.log(`site RSS ${before} kB before; peak ${peak} kB during 40 × 100 MiB posts (+${peak - before} kB)`)
  site.proc.kill('SIGTERM')
  expect(await site.exited).toBe(0)
}, 60_000)
