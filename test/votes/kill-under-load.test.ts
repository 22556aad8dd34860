import { afterAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/load.ts'
import { openDatabase } from '../../src/db/open.ts'
import { memoryLogger } from '../../src/log.ts'
import { cleanupTemp, seedServer, sqliteSite, tempDir } from '../helpers.ts'
import { startServer, stopServer, writeLoadConfig } from '../real-server.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

// The state letter of a process (Linux /proc): "T" once a SIGSTOP has taken effect.
const processState = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0]

// The worst bug of a server list is a vote it acknowledged and then lost. Here the real site
// takes a load of concurrent votes, is killed with SIGKILL in the middle of it, and restarts:
// every vote that got a 201 must be in the database, with its queued deliveries (the outbox).
test('kill -9 under load: every acknowledged vote survives with its queued deliveries', async () => {
  const dir = tempDir()
  // Channel targets are loopback with private targets refused: whatever handles deliveries,
  // nothing leaves the machine.
  const configPath = writeLoadConfig(dir, 'votes.db')
  const rt = sqliteSite(loadConfig(configPath), { log: memoryLogger() })
  const { server } = await seedServer(rt, { name: 'Crash Test' })
  const now = Date.now()
  rt.db.run("INSERT INTO webhook (server_id, url, secret, created_at, updated_at) VALUES (?, 'http://127.0.0.1:9/hook', 'whsec_test', ?, ?)", [server.id, now, now])
  rt.db.run("INSERT INTO votifier (server_id, host, port, protocol, token, created_at, updated_at) VALUES (?, '127.0.0.1', 9, 'v2', 'token', ?, ?)", [server.id, now, now])
  rt.db.close()

  const site = await startServer(configPath)
  const acked = new Map<string, { pseudo: string; createdAt: string }>()
  let failed = 0
  let next = 0
  let killed = false
  // Once a few hundred votes are acknowledged the site is frozen (SIGSTOP: it stops wherever it
  // is, as a kill would find it), and every request sent after the freeze has taken effect is
  // surely unanswered when it dies: a site faster than this client could otherwise have answered
  // everything sent before the kill.
  let frozen: Promise<void> | null = null
  let sentToFrozen = 0
  const freeze = async () => {
    site.proc.kill('SIGSTOP')
    await until(() => processState(site.proc.pid) === 'T', 'the site to be frozen')
  }
  const worker = async () => {
    while (!killed) {
      if (frozen) {
        await frozen
        if (killed) return
        sentToFrozen++
      }
      const i = next++
      let status: number
      let body: { vote: { id: string; pseudo: string; createdAt: string } }
      try {
        const r = await fetch(`${site.url}/serveur/${server.slug}/voter`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
          body: JSON.stringify({ pseudo: `p${String(i).padStart(5, '0')}` }),
        })
        status = r.status
        body = await r.json()
      } catch (e) {
        if (!killed) throw e
        failed++ // no answer: the process died under this request
        return
      }
      if (status !== 201) throw new Error(`unexpected answer ${status}: ${JSON.stringify(body)}`)
      acked.set(body.vote.id, { pseudo: body.vote.pseudo, createdAt: body.vote.createdAt })
      // This worker's next request goes to the frozen site.
      if (acked.size >= 300) frozen ??= freeze()
    }
  }
  let loadError: unknown = null
  const load = Promise.all(Array.from({ length: 24 }, worker)).catch((e) => { loadError = e })
  try {
    await until(() => sentToFrozen > 0 || loadError !== null, 'a vote sent to the frozen site')
  } finally {
    killed = true
    site.proc.kill('SIGKILL')
    await site.proc.exited
  }
  await load
  if (loadError) throw loadError
  expect(site.proc.signalCode).toBe('SIGKILL')

  // The restart opens the database after the crash (WAL recovery) and serves again.
  const again = await startServer(configPath)
  try {
    expect((await fetch(`${again.url}/api/v1/health`)).status).toBe(200)
  } finally {
    expect(await stopServer(again)).toBe(0)
  }

  const db = openDatabase(join(dir, 'votes.db'))
  try {
    const vote = db.prepare('SELECT pseudo, created_at AS createdAt FROM vote WHERE id = ?')
    const deliveries = db.prepare('SELECT id, channel, attempts FROM delivery WHERE vote_id = ? ORDER BY channel')
    const jobs = new Set((db.query("SELECT payload FROM job WHERE kind = 'delivery'").all() as { payload: string }[]).map((j) => JSON.parse(j.payload).deliveryId))
    for (const [id, a] of acked) {
      const row = vote.get(id) as { pseudo: string; createdAt: number } | null
      expect(row).toEqual({ pseudo: a.pseudo, createdAt: Date.parse(a.createdAt) })
      const ds = deliveries.all(id) as { id: string; channel: string; attempts: number }[]
      expect(ds.map((d) => d.channel)).toEqual(['votifier', 'webhook'])
      // Queued: a job still waits for it, or it has been attempted already.
      for (const d of ds) expect(jobs.has(d.id) || d.attempts > 0).toBe(true)
    }
    // The month counter and the votes never disagree, even across the crash.
    const counted = (db.query('SELECT coalesce(sum(votes), 0) AS n FROM server_month').get() as { n: number }).n
    expect(counted).toBe((db.query('SELECT count(*) AS n FROM vote').get() as { n: number }).n)
  } finally {
    db.close()
  }
  expect(acked.size).toBeGreaterThanOrEqual(300)
  expect(failed).toBeGreaterThan(0) // requests really were in flight when it died
}, 30_000)
