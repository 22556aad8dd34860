import { afterAll, expect, test } from 'bun:test'
import { ApiError } from '../../src/http/errors.ts'
import { recordVote } from '../../src/votes/service.ts'
import { describeBackends } from '../backends.ts'
import { cleanupTemp, seedServer, siteOn, type BackendRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

const count = async (rt: BackendRuntime, sql: string) => (await rt.row<{ n: number }>(sql))!.n

async function tooSoon(vote: Promise<unknown>): Promise<ApiError> {
  try { await vote } catch (e) { if (e instanceof ApiError) return e; throw e }
  throw new Error('expected VOTE_TOO_SOON')
}

describeBackends('recording a vote', (backend) => {
  test('stores the vote, its address and the month counters, and answers the next vote time', async () => {
    const rt = await siteOn(backend)
    const { server } = await seedServer(rt)
    const r = await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    expect(r.vote).toEqual({ id: expect.any(String), pseudo: 'Steve', createdAt: rt.clock.now() })
    expect(r.nextVoteAt).toBe(rt.clock.now() + 120 * 60_000)
    expect(await rt.row('SELECT pseudo, pseudo_key AS k, claimed_at AS c FROM vote')).toEqual({ pseudo: 'Steve', k: 'steve', c: null })
    expect(await rt.row('SELECT ip_key AS k, address AS a FROM vote_address')).toEqual({ k: '4:203.0.113.7', a: '203.0.113.7' })
    expect(await rt.row('SELECT month, votes FROM server_month')).toEqual({ month: '2026-11', votes: 1 })
    expect(await rt.row('SELECT pseudo, votes FROM voter_month')).toEqual({ pseudo: 'Steve', votes: 1 })
  })

  test('the same pseudo (any case) or the same address inside the interval is refused with nextVoteAt', async () => {
    const rt = await siteOn(backend)
    const { server } = await seedServer(rt)
    const first = await recordVote(rt, server, 'Steve', ['203.0.113.7'])
    rt.clock.advance(60_000)
    const byPseudo = await tooSoon(recordVote(rt, server, 'STEVE', ['198.51.100.1']))
    expect(byPseudo.status).toBe(429)
    expect(byPseudo.errorCode).toBe('VOTE_TOO_SOON')
    expect(byPseudo.extra).toEqual({ nextVoteAt: new Date(first.nextVoteAt).toISOString() })
    expect(byPseudo.headers['Retry-After']).toBe(String(119 * 60))
    const byAddress = await tooSoon(recordVote(rt, server, 'Alex', ['::ffff:203.0.113.7']))
    expect(byAddress.extra).toEqual({ nextVoteAt: new Date(first.nextVoteAt).toISOString() })
    expect(await count(rt, 'SELECT count(*) AS n FROM vote')).toBe(1)
    rt.clock.set(first.nextVoteAt)
    expect((await recordVote(rt, server, 'steve', ['203.0.113.7'])).vote.pseudo).toBe('steve')
  })

  test('IPv6 voters are one voter per /64', async () => {
    const rt = await siteOn(backend)
    const { server } = await seedServer(rt)
    await recordVote(rt, server, 'Steve', ['2001:db8:1:2::10'])
    expect((await tooSoon(recordVote(rt, server, 'Alex', ['2001:db8:1:2:ffff::1']))).errorCode).toBe('VOTE_TOO_SOON')
    expect((await recordVote(rt, server, 'Alex', ['2001:db8:1:3::1'])).vote.pseudo).toBe('Alex')
  })

  test('dual-stack: a vote recorded with both addresses blocks either family', async () => {
    const rt = await siteOn(backend)
    const { server } = await seedServer(rt)
    await recordVote(rt, server, 'Steve', ['198.51.100.9', '2001:db8:9:9::1'])
    expect(await count(rt, 'SELECT count(*) AS n FROM vote_address')).toBe(2)
    expect((await tooSoon(recordVote(rt, server, 'Alex', ['2001:db8:9:9::2']))).errorCode).toBe('VOTE_TOO_SOON')
    expect((await tooSoon(recordVote(rt, server, 'Herobrine', ['198.51.100.9']))).errorCode).toBe('VOTE_TOO_SOON')
  })

  test('the same pseudo may vote for another server', async () => {
    const rt = await siteOn(backend)
    const a = await seedServer(rt)
    const b = await seedServer(rt, { name: 'Other' })
    await recordVote(rt, a.server, 'Steve', ['203.0.113.7'])
    expect((await recordVote(rt, b.server, 'Steve', ['203.0.113.7'])).vote.pseudo).toBe('Steve')
  })

  test('votes in the same millisecond get distinct, strictly increasing times', async () => {
    const rt = await siteOn(backend)
    const { server } = await seedServer(rt)
    const times: number[] = []
    for (const [i, p] of ['Alpha', 'Bravo', 'Charlie', 'Delta'].entries()) times.push((await recordVote(rt, server, p, [`203.0.113.${i + 1}`])).vote.createdAt)
    expect(times).toEqual([0, 1, 2, 3].map((i) => rt.clock.now() + i))
  })

  test('votes count in their UTC month: 23:59:59.999 on the 31st and 00:00 on the 1st', async () => {
    const rt = await siteOn(backend, {}, Date.UTC(2026, 9, 31, 23, 59, 59, 999))
    const { server } = await seedServer(rt)
    await recordVote(rt, server, 'Steve', ['203.0.113.1'])
    rt.clock.set(Date.UTC(2026, 10, 1))
    await recordVote(rt, server, 'Alex', ['203.0.113.2'])
    expect(await rt.rows('SELECT month, votes FROM server_month ORDER BY month')).toEqual([
      { month: '2026-10', votes: 1 }, { month: '2026-11', votes: 1 },
    ])
  })

  test('pseudo rules depend on the edition', async () => {
    const rt = await siteOn(backend)
    const java = (await seedServer(rt)).server
    const bedrock = (await seedServer(rt, { name: 'Bedrock Realm', edition: 'bedrock' })).server
    for (const bad of ['ab', 'a'.repeat(17), 'has space', '.Steve', 'Stéve', '']) {
      await expect(recordVote(rt, java, bad, ['203.0.113.1'])).rejects.toThrow('pseudo must be')
    }
    let n = 0
    for (const good of ['.Steve', '*Alex Smith', 'Big Tree 42']) expect((await recordVote(rt, bedrock, good, [`198.51.100.${++n}`])).vote.pseudo).toBe(good)
    for (const bad of ['..Steve', ' Steve', 'Steve ', '.' + 'a'.repeat(16), 'a*b']) {
      await expect(recordVote(rt, bedrock, bad, ['203.0.113.1'])).rejects.toThrow('pseudo must be')
    }
  })

  test('one delivery and one job per configured channel are written with the vote', async () => {
    const rt = await siteOn(backend)
    const { server } = await seedServer(rt)
    await recordVote(rt, server, 'Nobody', ['203.0.113.1'])
    expect(await count(rt, 'SELECT count(*) AS n FROM delivery') + await count(rt, 'SELECT count(*) AS n FROM job')).toBe(0)

    const now = rt.clock.now()
    await rt.store.channels.putWebhook(server.id, 'https://hooks.example.com/v', 'whsec_x', now)
    await rt.store.channels.putVotifier({ serverId: server.id, host: 'mc.example.com', port: 8192, protocol: 'v2', publicKey: null, token: 'tok' }, now)
    const { vote } = await recordVote(rt, server, 'Steve', ['203.0.113.2'])
    const deliveries = await rt.rows('SELECT id, vote_id AS "voteId", channel, status, payload FROM delivery ORDER BY channel') as { id: string; voteId: string; channel: string; status: string; payload: string }[]
    expect(deliveries.map((d) => [d.channel, d.voteId, d.status])).toEqual([['votifier', vote.id, 'pending'], ['webhook', vote.id, 'pending']])
    expect(JSON.parse(deliveries[0].payload)).toEqual({
      server: { id: server.id, slug: server.slug, name: server.name }, vote, address: '203.0.113.2', monthlyVotes: 2,
    })
    const jobs = await rt.rows("SELECT payload FROM job WHERE kind = 'delivery' ORDER BY payload") as { payload: string }[]
    expect(jobs.map((j) => JSON.parse(j.payload).deliveryId).sort()).toEqual(deliveries.map((d) => d.id).sort())
  })
})
