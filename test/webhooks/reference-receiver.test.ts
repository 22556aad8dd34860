import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { redeliver, sendTestVotes } from '../../src/deliveries/service.ts'
import { recordVote } from '../../src/votes/service.ts'
import { attemptRows, deliveryRows, deliveryRuntime } from '../deliveries/setup.ts'
import { codeBlocks } from '../docs/markdown.ts'
import { describeBackends } from '../backends.ts'
import { cleanupTemp } from '../helpers.ts'

const FILE = join(import.meta.dir, 'reference-receiver.ts')
const SECRET = 'whsec_' + 'r'.repeat(43)
const procs: Bun.Subprocess[] = []
afterEach(() => { for (const p of procs.splice(0)) p.kill() })
afterAll(cleanupTemp)

// Starts the documented receiver as its own process and follows what it prints.
async function startReference() {
  const proc = Bun.spawn(['bun', FILE], { env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: '0' }, stdout: 'pipe', stderr: 'inherit' })
  procs.push(proc)
  let out = ''
  let changed = () => {}
  void (async () => {
    const reader = proc.stdout.getReader()
    const decoder = new TextDecoder()
    for (let r = await reader.read(); !r.done; r = await reader.read()) { out += decoder.decode(r.value); changed() }
  })()
  const waitFor = (re: RegExp) => new Promise<RegExpMatchArray>((resolve) => {
    const check = () => { const m = out.match(re); if (m) { changed = () => {}; resolve(m) } else changed = check }
    check()
  })
  const url = (await waitFor(/listening on (http:\/\/\S+)/))[1]
  return { url: new URL('/votes', url).href, output: () => out, waitFor }
}

describe('the reference webhook receiver (docs/owners.md)', () => {
  test('the owners\' page shows exactly the file the tests run', () => {
    const page = readFileSync(join(import.meta.dir, '../../docs/owners.md'), 'utf8')
    const shown = codeBlocks(page.slice(page.indexOf('\n### Reference webhook receiver\n'))).find((b) => b.info === 'ts')
    expect(shown?.code).toBe(readFileSync(FILE, 'utf8'))
  })
})

describeBackends('the reference webhook receiver against deliveries', (backend) => {
  test('accepts votelist\'s deliveries and rewards each vote once, retries included; tests reward nobody', async () => {
    const ref = await startReference()
    const { rt, server } = await deliveryRuntime(backend, {}, undefined, Date.now())
    await rt.store.channels.putWebhook(server.id, ref.url, SECRET, rt.clock.now())
    const { vote } = await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect((await attemptRows(rt))[0]).toMatchObject({ status: 'succeeded', httpStatus: 200 })
    await ref.waitFor(/reward Steve/)
    expect(ref.output()).toContain(`reward Steve for vote ${vote.id}\n`)

    await redeliver(rt, server, (await deliveryRows(rt))[0].id)
    await rt.queue.drain()
    expect((await attemptRows(rt))[1]).toMatchObject({ status: 'succeeded', httpStatus: 200 })
    const [t] = await sendTestVotes(rt, server, 'Alex', null)
    expect(t.status).toBe('succeeded')
    expect(ref.output().match(/reward/g)?.length).toBe(1)
  })

  test('401 for a wrong signature (a delivery signed with another secret) and for an old timestamp', async () => {
    const ref = await startReference()
    const { rt, server } = await deliveryRuntime(backend, {}, undefined, Date.now())
    await rt.store.channels.putWebhook(server.id, ref.url, 'whsec_' + 'x'.repeat(43), rt.clock.now())
    await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    await rt.queue.drain()
    expect((await attemptRows(rt))[0]).toMatchObject({ status: 'failed', httpStatus: 401 })
    expect((await attemptRows(rt))[0].error).toBe('the receiver answered 401: "bad signature" — does it check the signature with this webhook\'s current secret?')

    const post = (timestamp: string, body: string, signature: string) =>
      fetch(ref.url, { method: 'POST', body, headers: { 'x-tsm-timestamp': timestamp, 'x-tsm-signature': signature } })
    const sign = (ts: string, body: string) => 'sha256=' + createHmac('sha256', SECRET).update(`${ts}.${body}`).digest('hex')
    const body = JSON.stringify({ event: 'vote', vote: { id: 'v1', pseudo: 'Alex', createdAt: new Date().toISOString() } })
    const now = String(Math.floor(Date.now() / 1000))
    const old = String(Math.floor(Date.now() / 1000) - 301)
    expect((await post(old, body, sign(old, body))).status).toBe(401)
    expect((await post(now, body + ' ', sign(now, body))).status).toBe(401)
    expect((await post(now, body, sign(now, body).slice(0, -1))).status).toBe(401)
    expect((await post(now, body, sign(now, body))).status).toBe(200)
    await ref.waitFor(/reward Alex/)
    expect(ref.output()).not.toContain('reward Steve')
  })
})
