import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { createUser } from '../../src/accounts/service.ts'
import { use } from '../../src/db/store.ts'
import type { UnlistedReason } from '../../src/servers/repo.ts'
import type { ServerCreate } from '../../src/servers/schema.ts'
import { createServer, updateServer } from '../../src/servers/service.ts'
import { backends, closeTestSites, describeBackends } from '../backends.ts'
import { cleanupTemp, siteOn, testLookup, type BackendRuntime } from '../helpers.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

// The one rule of "on the public site" (src/servers/listed.ts), seen through every query
// that applies it: the ranking, the public lookups, the vote lookup and the ping round's targets.
async function owners(rt: BackendRuntime) {
  const alice = await createUser(rt, { email: 'alice@example.com', password: 'correct horse battery' })
  const bob = await createUser(rt, { email: 'bob@example.com', password: 'correct horse battery' })
  const list = (owner: { id: string }, input: Partial<ServerCreate> & { name: string }) =>
    createServer({ ...rt, lookup: testLookup }, owner.id, { host: 'play.example.com', ...input })
  return { alice, bob, list }
}

async function publicView(rt: BackendRuntime, slug: string) {
  const s = (await rt.store.servers.bySlug(slug))!
  return {
    reason: await rt.store.servers.unlistedReason(s.id),
    page: (await rt.store.servers.listedBySlug(slug)) !== null,
    vote: (await rt.store.servers.voteTarget(slug))!.listed,
    ranked: (await rt.store.ranking.page('2026-11', {}, 100, 0)).rows.some((r) => r.slug === slug),
    rank: (await rt.store.ranking.rankOf(s.id, '2026-11')) !== null,
    pinged: (await rt.store.servers.pingTargets()).some((t) => t.num === s.num),
  }
}
const listed = { reason: null, page: true, vote: true, ranked: true, rank: true, pinged: true }
const off = (reason: UnlistedReason) => ({ reason, page: false, vote: false, ranked: false, rank: false, pinged: false })

describeBackends('which servers the public sees', (backend) => {
  test('without require_verification: every server not hidden, verified or not; the ranking marks the verified', async () => {
    const rt = await siteOn(backend)
    const { alice, list } = await owners(rt)
    const a = await list(alice, { name: 'Alpha' })
    const b = await list(alice, { name: 'Bravo', host: 'mc.example.org' })
    await rt.store.servers.setVerified(b.id, rt.clock.now())
    expect(await publicView(rt, a.slug)).toEqual(listed)
    expect(await publicView(rt, b.slug)).toEqual(listed)
    expect((await rt.store.ranking.page('2026-11', {}, 10, 0)).rows.map((r) => [r.slug, r.verified])).toEqual([['alpha', false], ['bravo', true]])
    expect((await rt.store.ranking.rankOf(b.id, '2026-11'))?.verified).toBe(true)
    await rt.store.servers.update({ ...a, hidden: true })
    expect(await publicView(rt, a.slug)).toEqual(off('hidden'))
  })

  test('with require_verification: an unverified server is off the public site until it is verified', async () => {
    const rt = await siteOn(backend, { listing: { require_verification: true } })
    const { alice, list } = await owners(rt)
    const a = await list(alice, { name: 'Alpha' })
    expect(await publicView(rt, a.slug)).toEqual(off('unverified'))
    await rt.store.servers.setVerified(a.id, rt.clock.now())
    expect(await publicView(rt, a.slug)).toEqual(listed)
    await rt.store.servers.update({ ...(await rt.store.servers.byId(a.id))!, hidden: true })
    expect(await publicView(rt, a.slug)).toEqual(off('hidden'))
  })

  test('two accounts listing one address: the verified listing keeps it, the other is off whatever the policy', async () => {
    const rt = await siteOn(backend)
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
    for (const s of [real, ...copies, ...others]) expect(await publicView(rt, s.slug)).toEqual(listed)
    await rt.store.servers.setVerified(real.id, rt.clock.now())
    expect(await publicView(rt, real.slug)).toEqual(listed)
    for (const s of copies) expect(await publicView(rt, s.slug)).toEqual(off('claimed'))
    for (const s of others) expect(await publicView(rt, s.slug)).toEqual(listed)
    // The admin sees every pair of accounts on one address, with who is verified.
    const pairs = await Promise.all((await rt.store.servers.addressRivals())
      .map(async (p) => [(await rt.store.servers.byId(p.serverId))!.slug, p.rival.slug, p.rival.verified]))
    expect(pairs).toEqual([['real', 'copy-one', false], ['real', 'copy-two', false], ['copy-one', 'real', true], ['copy-two', 'real', true]])
    // The latest proof wins: verifying a copy takes the address from the other account.
    await rt.store.servers.setVerified(copies[0].id, rt.clock.now())
    expect(await rt.store.servers.unverifyRivals(copies[0].id)).toEqual(['real'])
    expect(await publicView(rt, real.slug)).toEqual(off('claimed'))
    expect(await publicView(rt, copies[0].slug)).toEqual(listed)
    // The other copy is the same account's: a second listing of one's own address is not a claim.
    expect(await publicView(rt, copies[1].slug)).toEqual(listed)
  })

  test('two accounts proving one address at the same moment: one proof wins, the other listing is off the site', async () => {
    const rt = await siteOn(backend)
    const { alice, bob, list } = await owners(rt)
    const real = await list(alice, { name: 'Real' })
    const copy = await list(bob, { name: 'Copy' })
    // What verifyOwnership writes once the MOTD holds the token, for both at once.
    const prove = (id: string) => rt.store.write(function* (tx) {
      yield* use(tx.servers.setVerified(id, rt.clock.now()))
      return yield* use(tx.servers.unverifyRivals(id))
    })
    await Promise.all([prove(real.id), prove(copy.id)])
    const reasons = [(await publicView(rt, real.slug)).reason, (await publicView(rt, copy.slug)).reason]
    expect(reasons.filter((r) => r === null)).toHaveLength(1)
    expect(reasons.filter((r) => r === 'claimed')).toHaveLength(1)
  })

  test('changing the host, port or edition of a verified server resets it; other changes keep it', async () => {
    const rt = await siteOn(backend, { listing: { require_verification: true } })
    const { alice, list } = await owners(rt)
    const deps = { ...rt, lookup: testLookup }
    const s = await list(alice, { name: 'Alpha', host: 'play.example.com' })
    const verify = () => rt.store.servers.setVerified(s.id, rt.clock.now())
    const after = async (patch: Parameters<typeof updateServer>[2]) => {
      await verify()
      return (await updateServer(deps, (await rt.store.servers.byId(s.id))!, patch, { id: alice.id, email: alice.email, isAdmin: false })).verifiedAt
    }
    const at = rt.clock.now()
    expect(await after({ name: 'Alpha 2', description: 'new', modes: ['pvp'], website: 'https://example.com' })).toBe(at)
    // The same address written differently is the same address.
    expect(await after({ host: 'PLAY.example.com', port: 25565 })).toBe(at)
    expect(await after({ host: 'mc.example.org' })).toBeNull()
    expect((await rt.store.servers.byId(s.id))!.verifiedAt).toBeNull()
    expect(await publicView(rt, s.slug)).toEqual(off('unverified'))
    expect(await after({ port: 25570 })).toBeNull()
    expect(await after({ edition: 'bedrock', port: 25570 })).toBeNull()
  })
})

describe.if(backends.includes('postgres'))('proofs of one address on PostgreSQL', () => {
  afterEach(closeTestSites)

  test('a second proof of an address waits for the first one\'s commit, then takes the address from it', async () => {
    const rt = await siteOn('postgres')
    const { alice, bob, list } = await owners(rt)
    const real = await list(alice, { name: 'Real' })
    const copy = await list(bob, { name: 'Copy' })
    let proved = false
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    // The first proof's transaction stays open after its setVerified, until released.
    const first = rt.store.write(function* (tx) {
      yield* use(tx.servers.setVerified(real.id, rt.clock.now()))
      proved = true
      yield held
      return yield* use(tx.servers.unverifyRivals(real.id))
    })
    await until(() => proved, 'the first proof to be written')
    const second = rt.store.write(function* (tx) {
      yield* use(tx.servers.setVerified(copy.id, rt.clock.now()))
      return yield* use(tx.servers.unverifyRivals(copy.id))
    })
    // Without the lock the second would not wait, miss the first's uncommitted proof, and both
    // listings would stay verified.
    try {
      await until(async () => (await rt.row<{ n: number }>(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`))!.n === 1,
        'the second proof to wait for the first')
    } finally {
      release()
    }
    expect(await first).toEqual([])
    expect(await second).toEqual(['real'])
    expect((await publicView(rt, real.slug)).reason).toBe('claimed')
    expect((await publicView(rt, copy.slug)).reason).toBeNull()
  })
})
