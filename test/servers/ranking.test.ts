import { afterAll, describe, expect, test } from 'bun:test'
import { recordVote } from '../../src/votes/service.ts'
import { cleanupTemp, seedServer, testRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

describe('ranking', () => {
  test('by votes this month; ties to the server whose latest vote came first, then the older listing', async () => {
    const rt = testRuntime()
    const a = (await seedServer(rt, { name: 'Alpha', modes: ['survival'] })).server
    rt.clock.advance(1)
    const b = (await seedServer(rt, { name: 'Bravo', edition: 'bedrock' })).server
    rt.clock.advance(1)
    const c = (await seedServer(rt, { name: 'Charlie', modes: ['survival', 'pvp'] })).server
    rt.clock.advance(1)
    const d = (await seedServer(rt, { name: 'Delta' })).server
    let ip = 0
    const vote = (s: typeof a, p: string) => { rt.clock.advance(1000); return recordVote(rt, s, p, [`198.51.100.${++ip}`]) }
    for (const [s, p] of [[c, 'One'], [b, 'Two'], [b, 'Three'], [a, 'Four'], [c, 'Five']] as const) await vote(s, p)
    // b: 2 votes, latest at +3 s; c: 2 votes, latest at +5 s → b first. a: 1. d: 0.
    const month = '2026-11'
    const { rows, total } = rt.store.ranking.page(month, {}, 10, 0)
    expect(total).toBe(4)
    expect(rows.map((r) => [r.rank, r.name, r.votes])).toEqual([[1, 'Bravo', 2], [2, 'Charlie', 2], [3, 'Alpha', 1], [4, 'Delta', 0]])
    expect(rt.store.ranking.rankOf(c.id, month)).toMatchObject({ rank: 2, votes: 2 })
    // Filters keep the site-wide rank.
    expect(rt.store.ranking.page(month, { mode: 'survival' }, 10, 0).rows.map((r) => [r.rank, r.name])).toEqual([[2, 'Charlie'], [3, 'Alpha']])
    expect(rt.store.ranking.page(month, { edition: 'bedrock' }, 10, 0).rows.map((r) => r.name)).toEqual(['Bravo'])
    expect(rt.store.ranking.page(month, { search: 'ELT' }, 10, 0).rows.map((r) => r.name)).toEqual(['Delta'])
    expect(rt.store.ranking.page(month, {}, 2, 2).rows.map((r) => r.rank)).toEqual([3, 4])
    // Two servers with no votes: the older listing first (Alpha has votes; add another empty one).
    const e = (await seedServer(rt, { name: 'Echo' })).server
    expect(rt.store.ranking.rankOf(e.id, month)?.rank).toBe(5)
  })

  test('hidden servers have no rank; past months keep their own ranks and top voters', async () => {
    const rt = testRuntime({}, Date.UTC(2026, 9, 15))
    const a = (await seedServer(rt, { name: 'Alpha' })).server
    const b = (await seedServer(rt, { name: 'Bravo' })).server
    await recordVote(rt, a, 'Steve', ['198.51.100.1'])
    rt.clock.set(Date.UTC(2026, 10, 2))
    await recordVote(rt, b, 'Alex', ['198.51.100.2'])
    await recordVote(rt, b, 'Steve', ['198.51.100.3'])
    rt.clock.advance(3 * 3600_000)
    await recordVote(rt, b, 'Alex', ['198.51.100.2'])
    expect(rt.store.ranking.rankOf(a.id, '2026-10')).toMatchObject({ rank: 1, votes: 1 })
    expect(rt.store.ranking.rankOf(a.id, '2026-11')).toMatchObject({ rank: 2, votes: 0 })
    expect(rt.store.ranking.topVoters(b.id, '2026-11', 10)).toEqual([{ pseudo: 'Alex', votes: 2 }, { pseudo: 'Steve', votes: 1 }])
    expect(rt.store.ranking.topVoters(a.id, '2026-10', 10)).toEqual([{ pseudo: 'Steve', votes: 1 }])
    expect(rt.store.ranking.totalVotes(b.id)).toBe(3)
    // A server listed in November has no rank in October.
    const c = (await seedServer(rt, { name: 'Charlie' })).server
    expect(rt.store.ranking.rankOf(c.id, '2026-10')).toBeNull()
    rt.store.servers.update({ ...b, hidden: true })
    expect(rt.store.ranking.rankOf(b.id, '2026-11')).toBeNull()
    expect(rt.store.ranking.rankOf(a.id, '2026-11')?.rank).toBe(1)
  })
})
