import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'

afterAll(cleanupTemp)

const HOUR = 3600_000

// On PostgreSQL the claims run on the connections of the pool at once (and, across processes, on
// connections of their own): a vote is claimed exactly once however they interleave.
async function listening(backend: Backend) {
  const rt = await siteOn(backend)
  const seeded = await seedServer(rt)
  const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
  const claim = (query: string) =>
    fetch(`http://127.0.0.1:${app.server!.port}/api/v1/votes/claim?${query}`, { method: 'POST', headers: { 'X-Api-Key': seeded.key } })
      .then(async (r) => ({ status: r.status, body: await r.json() }))
  return { rt, app, ...seeded, claim }
}

describeBackends('claims at the same moment', (backend) => {
  test('100 simultaneous claims for one vote over real HTTP: exactly one claimed:true', async () => {
    const s = await listening(backend)
    try {
      const v = await recordVote(s.rt, s.server, 'Steve', ['203.0.113.7'])
      const answers = await Promise.all(Array.from({ length: 100 }, () => s.claim('pseudo=Steve')))
      expect(answers.every((a) => a.status === 200)).toBe(true)
      const won = answers.filter((a) => a.body.claimed)
      expect(won).toHaveLength(1)
      expect(won[0].body.vote.id).toBe(v.vote.id)
      expect(answers.filter((a) => !a.body.claimed).every((a) => a.body.reason === 'ALREADY_CLAIMED')).toBe(true)
    } finally {
      await s.app.stop()
    }
  })

  test('100 simultaneous claims for five votes: each vote claimed exactly once', async () => {
    const s = await listening(backend)
    try {
      const ids: string[] = []
      for (let i = 0; i < 5; i++) {
        ids.push((await recordVote(s.rt, s.server, 'Steve', [])).vote.id)
        s.rt.clock.advance(2 * HOUR + 1)
      }
      const answers = await Promise.all(Array.from({ length: 100 }, () => s.claim('pseudo=steve&window=1440')))
      const won = answers.filter((a) => a.body.claimed).map((a) => a.body.vote.id)
      expect(won.toSorted()).toEqual(ids.toSorted())
      expect(answers.filter((a) => a.body.reason === 'ALREADY_CLAIMED')).toHaveLength(95)
      expect(await s.rt.row('SELECT count(*) AS n FROM vote WHERE claimed_at IS NOT NULL')).toEqual({ n: 5 })
    } finally {
      await s.app.stop()
    }
  })

  test('claims racing from four processes on one database: each vote claimed exactly once', async () => {
    const rt = await siteOn(backend, {}, Date.now() - 12 * HOUR)
    const { server } = await seedServer(rt)
    const ids: string[] = []
    for (let i = 0; i < 6; i++) {
      ids.push((await recordVote(rt, server, 'Steve', [])).vote.id)
      rt.clock.advance(2 * HOUR + 1)
    }
    const workers = Array.from({ length: 4 }, () =>
      Bun.spawn(['bun', join(import.meta.dir, 'claim-worker.ts'), JSON.stringify(rt.config.database), server.id, 'Steve', '200'], { stdout: 'pipe', stderr: 'inherit' }))
    const won = (await Promise.all(workers.map(async (w) => {
      const out = await new Response(w.stdout).text()
      expect(await w.exited).toBe(0)
      return JSON.parse(out) as string[]
    }))).flat()
    expect(won.toSorted()).toEqual(ids.toSorted())
  }, 30_000)
})
