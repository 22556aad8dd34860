import { afterAll, describe, expect, test } from 'bun:test'
import { ApiError } from '../../src/http/errors.ts'
import { listedServer, listedVoteTarget } from '../../src/servers/service.ts'
import { cleanupTemp, seedServer, testRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

describe('the vote path\'s server lookup', () => {
  test('reads what a vote records, agreeing with the full server; hidden, disabled owners\' and unknown servers are not listed', async () => {
    const rt = testRuntime()
    const { server } = await seedServer(rt, { name: 'Emerald Valley', edition: 'bedrock', modes: ['survival'] })
    const target = await listedVoteTarget(rt.store.servers, server.slug)
    expect(target).toEqual({ id: server.id, slug: server.slug, name: 'Emerald Valley', edition: 'bedrock' })
    const full = await listedServer(rt.store.servers, server.slug)
    expect(target).toEqual({ id: full.id, slug: full.slug, name: full.name, edition: full.edition })

    // The owner's account disabled: not listed, whatever the server's own flag.
    rt.store.users.setDisabled(server.ownerId, rt.clock.now())
    expect(rt.store.servers.voteTarget(server.slug)?.listed).toBe(false)
    expect(rt.store.servers.bySlug(server.slug)).toMatchObject({ hidden: false })
    expect(rt.store.servers.unlistedReason(server.id)).toBe('disabled')
    expect(rt.store.servers.pingTargets()).toEqual([])
    rt.store.users.setDisabled(server.ownerId, null)
    expect(rt.store.servers.voteTarget(server.slug)?.listed).toBe(true)

    rt.store.servers.update({ ...full, hidden: true })
    expect(rt.store.servers.voteTarget(server.slug)?.listed).toBe(false)
    for (const slug of [server.slug, 'no-such-server']) {
      let error: unknown
      try { await listedVoteTarget(rt.store.servers, slug) } catch (e) { error = e }
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).status).toBe(404)
      expect((error as ApiError).message).toBe(`no server with the slug "${slug}" is listed`)
    }
    expect(rt.store.servers.voteTarget('no-such-server')).toBeNull()
  })
})
