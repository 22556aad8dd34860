import { afterAll, expect, test } from 'bun:test'
import { createUser } from '../../src/accounts/service.ts'
import { createServer } from '../../src/servers/service.ts'
import { describeBackends } from '../backends.ts'
import { cleanupTemp, siteOn, testLookup } from '../helpers.ts'

afterAll(cleanupTemp)

describeBackends('the ranking\'s search', (backend) => {
  test('finds names in any case, accented letters too, and keeps each server\'s rank among all', async () => {
    const rt = await siteOn(backend)
    const owner = await createUser(rt, { email: 'owner@example.com', password: 'correct horse battery' })
    for (const name of ['Alpha', 'Émeraude Valley', 'ÉTOILE', 'Straße'])
      await createServer({ ...rt, lookup: testLookup }, owner.id, { host: 'play.example.com', name })
    const found = async (search: string) => (await rt.store.ranking.page('2026-11', { search }, 10, 0)).rows.map((r) => [r.rank, r.name])
    expect(await found('émeraude')).toEqual([[2, 'Émeraude Valley']])
    expect(await found('ÉMERAUDE VALLEY')).toEqual([[2, 'Émeraude Valley']])
    expect(await found('étoile')).toEqual([[3, 'ÉTOILE']])
    expect(await found('STRASSE')).toEqual([])
    expect(await found('straße')).toEqual([[4, 'Straße']])
    expect(await found('a')).toEqual([[1, 'Alpha'], [2, 'Émeraude Valley'], [4, 'Straße']])
    expect((await rt.store.ranking.page('2026-11', { search: 'ÉTOILE' }, 10, 5)).total).toBe(1)
  })
})
