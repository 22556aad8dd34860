import { afterAll, expect, test } from 'bun:test'
import { describeBackends } from '../backends.ts'
import { cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'

afterAll(cleanupTemp)

// Votes arriving at the same moment, over real HTTP. On PostgreSQL each request's transaction runs
// on its own connection of the pool, truly at once; the server's votes are serialised by the vote
// script itself (votes.serialise), so the outcome is the same as on SQLite.

async function site(backend: Parameters<typeof siteOn>[0]) {
  const rt = await siteOn(backend, { http: { trust_proxy: true }, limits: { vote_attempts_per_minute: 1_000_000, keyed_per_minute: 1_000_000 } })
  const seeded = await seedServer(rt)
  const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${app.server!.port}`
  const vote = (pseudo: string, address: string) =>
    fetch(`${base}/serveur/${seeded.server.slug}/voter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ pseudo }),
    }).then(async (r) => ({ status: r.status, body: await r.json() }))
  const list = (since: string) =>
    fetch(`${base}/api/v1/votes?limit=1000&since=${since}`, { headers: { 'X-Api-Key': seeded.key } }).then((r) => r.json())
  return { rt, app, vote, list }
}

describeBackends('votes at the same moment', (backend) => {
  test('the same player voting several times at once: exactly one 201, the others 429 VOTE_TOO_SOON', async () => {
    const s = await site(backend)
    try {
      // 12 players, each sending 4 votes at the same moment (same pseudo, same address).
      const players = Array.from({ length: 12 }, (_, i) => ({ pseudo: `Racer${i}`, address: `198.51.100.${i + 1}` }))
      const answers = await Promise.all(players.flatMap((p) => Array.from({ length: 4 }, () => s.vote(p.pseudo, p.address).then((a) => ({ ...a, p })))))
      for (const p of players) {
        const mine = answers.filter((a) => a.p === p)
        expect(mine.filter((a) => a.status === 201)).toHaveLength(1)
        const refused = mine.filter((a) => a.status !== 201)
        expect(refused.map((a) => [a.status, a.body.error.code])).toEqual([[429, 'VOTE_TOO_SOON'], [429, 'VOTE_TOO_SOON'], [429, 'VOTE_TOO_SOON']])
      }
      expect((await s.rt.row<{ n: number }>('SELECT count(*) AS n FROM vote'))!.n).toBe(12)
      expect(await s.rt.rows('SELECT votes FROM server_month')).toEqual([{ votes: 12 }])
    } finally {
      await s.app.stop()
    }
  })

  test('the same pseudo from two addresses, and two pseudos from one address, at once: one vote each', async () => {
    const s = await site(backend)
    try {
      const byPseudo = await Promise.all([s.vote('Steve', '203.0.113.1'), s.vote('Steve', '203.0.113.2')])
      const byAddress = await Promise.all([s.vote('Alex', '203.0.113.9'), s.vote('Notch', '203.0.113.9')])
      for (const pair of [byPseudo, byAddress]) expect(pair.map((a) => a.status).toSorted()).toEqual([201, 429])
    } finally {
      await s.app.stop()
    }
  })

  test('votes of different players within one millisecond get unique, strictly increasing times, all listed once', async () => {
    const s = await site(backend)
    try {
      const t = s.rt.clock.now()
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => s.vote(`Player${i}`, `192.0.2.${i + 1}`)))
      expect(answers.every((a) => a.status === 201)).toBe(true)
      // The clock stands still: each vote took the millisecond after the previous one.
      const times = answers.map((a) => Date.parse(a.body.vote.createdAt)).toSorted((a, b) => a - b)
      expect(times).toEqual(Array.from({ length: 40 }, (_, i) => t + i))
      const listed = await s.list(new Date(t - 1).toISOString())
      expect(listed.votes.map((v: { id: string }) => v.id).toSorted()).toEqual(answers.map((a) => a.body.vote.id).toSorted())
      expect(listed.votes.map((v: { createdAt: string }) => Date.parse(v.createdAt))).toEqual(times)
    } finally {
      await s.app.stop()
    }
  })
})
