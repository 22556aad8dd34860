// The database runs out of room while votes arrive (SQLITE_FULL, made real with max_page_count):
// every vote answered 201 is kept with its queued deliveries, every other one is answered
// 500 INTERNAL and leaves nothing behind, the database stays consistent, and voting works again
// as soon as there is room, without a restart.
import { afterAll, expect, test } from 'bun:test'
import { call, cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

const n = (rt: ReturnType<typeof testRuntime>, sql: string) => (rt.db.query(sql).get() as { n: number }).n

test('a full disk: acknowledged votes are all kept with their deliveries, refused ones leave nothing', async () => {
  const rt = testRuntime({ http: { trust_proxy: true } })
  const { server } = await seedServer(rt)
  rt.store.channels.putWebhook(server.id, 'https://hooks.example.net/votes', 'whsec_' + 's'.repeat(43), rt.clock.now())
  rt.store.channels.putVotifier({ serverId: server.id, host: 'mc.example.net', port: 8192, protocol: 'v2', publicKey: null, token: 'tok' }, rt.clock.now())
  const app = await testApp(rt)
  let next = 0
  const vote = async () => {
    const i = next++
    const r = await call(app, 'POST', `/serveur/${server.slug}/voter`, {
      body: { pseudo: `Player_${i}` },
      headers: { accept: 'application/json', 'x-forwarded-for': `198.51.${i >> 8}.${i & 255}` },
    })
    return { status: r.status, body: await r.json() }
  }

  // Some pages of room left: the first group commits fit, a later one cannot (it fails whole).
  const pages = n(rt, 'SELECT page_count AS n FROM pragma_page_count()')
  rt.db.run(`PRAGMA max_page_count = ${pages + 40}`)
  const answers: { status: number; body: any }[] = []
  for (let round = 0; round < 40 && !answers.some((a) => a.status === 500); round++) {
    answers.push(...(await Promise.all(Array.from({ length: 10 }, vote))))
    rt.clock.advance(1)
  }
  const accepted = answers.filter((a) => a.status === 201)
  const refused = answers.filter((a) => a.status !== 201)
  expect(accepted.length).toBeGreaterThan(0)
  expect(refused.length).toBeGreaterThan(0)
  for (const r of refused) expect([r.status, r.body.error.code]).toEqual([500, 'INTERNAL'])

  // Exactly the acknowledged votes, each with its address, its two deliveries and their jobs,
  // and the month counter agrees.
  const ids = rt.db.query('SELECT id FROM vote ORDER BY id').all().map((r) => (r as { id: string }).id)
  expect(ids).toEqual(accepted.map((a) => a.body.vote.id).sort())
  expect(n(rt, 'SELECT count(*) AS n FROM vote_address')).toBe(accepted.length)
  expect(n(rt, "SELECT count(*) AS n FROM delivery WHERE channel = 'webhook'")).toBe(accepted.length)
  expect(n(rt, "SELECT count(*) AS n FROM delivery WHERE channel = 'votifier'")).toBe(accepted.length)
  expect(n(rt, 'SELECT count(*) AS n FROM job')).toBe(2 * accepted.length)
  expect(n(rt, 'SELECT coalesce(sum(votes), 0) AS n FROM server_month')).toBe(accepted.length)
  expect(rt.db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
  expect(rt.db.query('PRAGMA foreign_key_check').all()).toEqual([])

  // Room again: the next vote goes through, on the same process and connection.
  rt.db.run('PRAGMA max_page_count = 1073741823')
  const after = await vote()
  expect(after.status).toBe(201)
  expect(n(rt, 'SELECT count(*) AS n FROM vote')).toBe(accepted.length + 1)
})
