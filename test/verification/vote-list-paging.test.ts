import { afterAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends } from '../backends.ts'
import { call, cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'

afterAll(cleanupTemp)

const DAY = 24 * 3600_000

// A vote stream: gaps between votes in ms, mostly 0 (many votes in one millisecond), some large
// (so that part of the stream is older than the 7-day horizon).
const gap = fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 * DAY }) })

// Where paging starts: nothing (default), a vote's time, a millisecond around it, or any time.
const start = fc.oneof(
  fc.constant({ kind: 'default' as const }),
  fc.record({ kind: fc.constant('vote' as const), index: fc.nat(), shift: fc.integer({ min: -1, max: 1 }) }),
  fc.record({ kind: fc.constant('any' as const), offset: fc.integer({ min: -10 * DAY, max: DAY }) }),
)

describeBackends('the vote list', (backend) => {
  test('following next from any since returns every vote after it exactly once, in order, even with votes arriving meanwhile', async () => {
    const rt = await siteOn(backend, { limits: { keyed_per_minute: 1_000_000 } }, Date.UTC(2026, 10, 1))
    const app = await testApp(rt)
    const { owner } = await seedServer(rt)
    let run = 0

    await fc.assert(fc.asyncProperty(
      fc.array(gap, { minLength: 0, maxLength: 120 }), start, fc.integer({ min: 1, max: 25 }), fc.array(fc.nat({ max: 4 }), { maxLength: 40 }),
      async (gaps, from, limit, arrivals) => {
        run++
        const { server, key } = await seedServer(rt, { name: `Paging ${run}`, slug: `paging-${run}` }, owner.email)
        const t0 = rt.clock.now()
        const recorded: { id: string; createdAt: number }[] = []
        // Distinct pseudos and no address: the vote interval never refuses one of them.
        const vote = async () => recorded.push((await recordVote(rt, server, `p${run}_${recorded.length}`, [])).vote)
        for (const g of gaps) {
          rt.clock.advance(g)
          await vote()
        }
        let since: number | undefined
        if (from.kind === 'vote' && recorded.length) since = recorded[from.index % recorded.length].createdAt + from.shift
        if (from.kind === 'any') since = rt.clock.now() + from.offset
        const effective = Math.max(since ?? -Infinity, rt.clock.now() - 7 * DAY)
        const expected = recorded.filter((v) => v.createdAt > effective)

        const seen: { id: string; createdAt: string }[] = []
        let cursor = since === undefined ? '' : `&since=${new Date(since).toISOString()}`
        for (let page = 0; ; page++) {
          expect(page).toBeLessThan(1000)
          const r = await call(app, 'GET', `/api/v1/votes?limit=${limit}${cursor}`, { headers: { 'X-Api-Key': key } })
          const body = await r.json() as { votes: { id: string; createdAt: string }[]; next: string }
          expect(body.votes.length).toBeLessThanOrEqual(limit)
          seen.push(...body.votes)
          if (!body.votes.length) break
          expect(body.next).toBe(body.votes[body.votes.length - 1].createdAt)
          cursor = `&since=${body.next}`
          // New votes arrive between pages, some in the millisecond of the last one.
          for (let i = 0; i < (arrivals[page] ?? 0); i++) {
            const v = recorded.length
            await vote()
            expected.push(recorded[v])
          }
        }
        expect(seen.map((v) => v.id)).toEqual(expected.map((v) => v.id))
        expect(seen.map((v) => Date.parse(v.createdAt))).toEqual(expected.map((v) => v.createdAt))
        // The clock may be far ahead now; the next run starts from where it is.
        expect(rt.clock.now()).toBeGreaterThanOrEqual(t0)
      },
    ), { numRuns: 60 })
  }, 60_000)
})
