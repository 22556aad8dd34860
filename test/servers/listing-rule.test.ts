import { afterAll, describe, expect, test } from 'bun:test'
import { createUser } from '../../src/accounts/service.ts'
import type { UnlistedReason } from '../../src/servers/repo.ts'
import type { ServerCreate } from '../../src/servers/schema.ts'
import { createServer, updateServer } from '../../src/servers/service.ts'
import { cleanupTemp, testLookup, testRuntime, type TestRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

// The one rule of "on the public site" (src/servers/listed.ts), seen through every query
// that applies it: the ranking, the public lookups, the vote lookup and the ping round's targets.
async function owners(rt: TestRuntime) {
  const alice = await createUser(rt, { email: 'alice@example.com', password: 'correct horse battery' })
  const bob = await createUser(rt, { email: 'bob@example.com', password: 'correct horse battery' })
  const list = (owner: { id: string }, input: Partial<ServerCreate> & { name: string }) =>
    createServer({ ...rt, lookup: testLookup }, owner.id, { host: 'play.example.com', ...input })
  return { alice, bob, list }
}

function publicView(rt: TestRuntime, slug: string) {
  const s = rt.store.servers.bySlug(slug)!
  return {
    reason: rt.store.servers.unlistedReason(s.id),
    page: rt.store.servers.listedBySlug(slug) !== null,
    vote: rt.store.servers.voteTarget(slug)!.listed,
    ranked: rt.store.ranking.page('2026-11', {}, 100, 0).rows.some((r) => r.slug === slug),
    rank: rt.store.ranking.rankOf(s.id, '2026-11') !== null,
    pinged: rt.store.servers.pingTargets().some((t) => t.num === s.num),
  }
}
const listed = { reason: null, page: true, vote: true, ranked: true, rank: true, pinged: true }
const off = (reason: UnlistedReason) => ({ reason, page: false, vote: false, ranked: false, rank: false, pinged: false })

describe('which servers the public sees', () => {
  test('without require_verification: every server not hidden, verified or not; the ranking marks the verified', async () => {
    const rt = testRuntime()
    const { alice, list } = await owners(rt)
    const a = await list(alice, { name: 'Alpha' })
    const b = await list(alice, { name: 'Bravo', host: 'mc.example.org' })
    rt.store.servers.setVerified(b.id, rt.clock.now())
    expect(publicView(rt, a.slug)).toEqual(listed)
    expect(publicView(rt, b.slug)).toEqual(listed)
    expect(rt.store.ranking.page('2026-11', {}, 10, 0).rows.map((r) => [r.slug, r.verified])).toEqual([['alpha', false], ['bravo', true]])
    expect(rt.store.ranking.rankOf(b.id, '2026-11')?.verified).toBe(true)
    rt.store.servers.update({ ...a, hidden: true })
    expect(publicView(rt, a.slug)).toEqual(off('hidden'))
  })

  test('with require_verification: an unverified server is off the public site until it is verified', async () => {
    const rt = testRuntime({ listing: { require_verification: true } })
    const { alice, list } = await owners(rt)
    const a = await list(alice, { name: 'Alpha' })
    expect(publicView(rt, a.slug)).toEqual(off('unverified'))
    rt.store.servers.setVerified(a.id, rt.clock.now())
    expect(publicView(rt, a.slug)).toEqual(listed)
    rt.store.servers.update({ ...rt.store.servers.byId(a.id)!, hidden: true })
    expect(publicView(rt, a.slug)).toEqual(off('hidden'))
  })

  test('two accounts listing one address: the verified listing keeps it, the other is off whatever the policy', async () => {
    const rt = testRuntime()
    const { alice, bob, list } = await owners(rt)
    // The same address written four ways: case, a final dot, the default port given or implied.
    const real = await list(alice, { name: 'Real', host: 'play.example.com', port: 25565 })
    const copies = [
      await list(bob, { name: 'Copy one', host: 'PLAY.example.com' }),
      await list(bob, { name: 'Copy two', host: 'play.example.com.' }),
    ]
    // Not the same address: another port, the Bedrock default port, the address's IP.
    const others = [
      await list(bob, { name: 'Other port', host: 'play.example.com', port: 25566 }),
      await list(bob, { name: 'Bedrock', host: 'play.example.com', edition: 'bedrock' }),
      await list(bob, { name: 'By IP', host: '93.184.216.34', port: 25565 }),
    ]
    // Nobody proved anything yet: all are listed.
    for (const s of [real, ...copies, ...others]) expect(publicView(rt, s.slug)).toEqual(listed)
    rt.store.servers.setVerified(real.id, rt.clock.now())
    expect(publicView(rt, real.slug)).toEqual(listed)
    for (const s of copies) expect(publicView(rt, s.slug)).toEqual(off('claimed'))
    for (const s of others) expect(publicView(rt, s.slug)).toEqual(listed)
    // The admin sees every pair of accounts on one address, with who is verified.
    const pairs = rt.store.servers.addressRivals().map((p) => [rt.store.servers.byId(p.serverId)!.slug, p.rival.slug, p.rival.verified])
    expect(pairs).toEqual([['real', 'copy-one', false], ['real', 'copy-two', false], ['copy-one', 'real', true], ['copy-two', 'real', true]])
    // The latest proof wins: verifying a copy takes the address from the other account.
    rt.store.servers.setVerified(copies[0].id, rt.clock.now())
    expect(rt.store.servers.unverifyRivals(copies[0].id)).toEqual(['real'])
    expect(publicView(rt, real.slug)).toEqual(off('claimed'))
    expect(publicView(rt, copies[0].slug)).toEqual(listed)
    // The other copy is the same account's: a second listing of one's own address is not a claim.
    expect(publicView(rt, copies[1].slug)).toEqual(listed)
  })

  test('changing the host, port or edition of a verified server resets it; other changes keep it', async () => {
    const rt = testRuntime({ listing: { require_verification: true } })
    const { alice, list } = await owners(rt)
    const deps = { ...rt, lookup: testLookup }
    const s = await list(alice, { name: 'Alpha', host: 'play.example.com' })
    const verify = () => rt.store.servers.setVerified(s.id, rt.clock.now())
    const after = async (patch: Parameters<typeof updateServer>[2]) => {
      verify()
      return (await updateServer(deps, rt.store.servers.byId(s.id)!, patch, { id: alice.id, email: alice.email, isAdmin: false })).verifiedAt
    }
    const at = rt.clock.now()
    expect(await after({ name: 'Alpha 2', description: 'new', modes: ['pvp'], website: 'https://example.com' })).toBe(at)
    // The same address written differently is the same address.
    expect(await after({ host: 'PLAY.example.com', port: 25565 })).toBe(at)
    expect(await after({ host: 'mc.example.org' })).toBeNull()
    expect(rt.store.servers.byId(s.id)!.verifiedAt).toBeNull()
    expect(publicView(rt, s.slug)).toEqual(off('unverified'))
    expect(await after({ port: 25570 })).toBeNull()
    expect(await after({ edition: 'bedrock', port: 25570 })).toBeNull()
  })
})
