import { afterAll, describe, expect, test } from 'bun:test'
import { DAY, HOUR } from '../../src/stats/repo.ts'
import { recordRound, runPingRound } from '../../src/stats/round.ts'
import { recordVote } from '../../src/votes/service.ts'
import { call, cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'
import { javaServer } from './peers.ts'

afterAll(cleanupTemp)

const NOW = Date.UTC(2026, 10, 22, 12, 0, 7)

describe('GET /api/v1/servers/{slug}', () => {
  test('the listing, live rank and votes, the last ping and the 24 h uptime', async () => {
    const peer = await javaServer({ online: 21, max: 300, motd: { text: 'Welcome', extra: ['!'] } })
    try {
      const rt = testRuntime({ site: { base_url: 'https://list.example.org' }, network: { allow_private_targets: true }, stats: { ping_interval_seconds: 300 } }, NOW - 40 * DAY)
      const app = await testApp(rt)
      const { server: a } = await seedServer(rt, {
        name: 'Emerald Valley', host: '127.0.0.1', port: peer.port, modes: ['survival', 'smp'], description: 'Cozy survival', website: 'https://emerald.example.org', version: '',
      })
      // Last month: 5 votes for a (count in totalVotes only); this month: 2.
      for (let i = 0; i < 5; i++) await recordVote(rt, a, `Old${i}`, [`198.51.100.${i + 1}`])
      rt.clock.set(NOW - HOUR)
      for (let i = 0; i < 2; i++) await recordVote(rt, a, `Now${i}`, [`203.0.113.${i + 1}`])

      // Earlier measurements: 25 h ago down (outside the 24 h), then 3 up and 1 down inside it.
      const targets = rt.store.servers.pingTargets().filter((t) => t.num === a.num)
      const status = (online: boolean) => ({ online, playersOnline: online ? 5 : 0, playersMax: 300, version: null, motd: null, styledMotd: null, favicon: null, latencyMs: null, error: online ? null : 'connection refused' })
      await rt.store.write(function* (tx) {
        yield* recordRound(tx, NOW - 25 * HOUR, targets, [{ serverNum: a.num, serverId: a.id, status: status(false), at: NOW - 25 * HOUR }])
        for (const [ago, up] of [[20, true], [15, false], [10, true]] as const) yield* recordRound(tx, NOW - ago * HOUR, targets, [{ serverNum: a.num, serverId: a.id, status: status(up), at: NOW - ago * HOUR }])
      })
      rt.clock.set(NOW)
      await runPingRound(rt, NOW, { spreadMs: 0 })
      // Listed after the round (so never pinged), with 3 votes this month: rank 1.
      const { server: b } = await seedServer(rt, { name: 'Busy Bedrock', host: '::1', port: 19133, edition: 'bedrock' })
      for (let i = 0; i < 3; i++) await recordVote(rt, b, `Bed${i}`, [`203.0.113.${i + 10}`])

      const res = await call(app, 'GET', `/api/v1/servers/${a.slug}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe('120')
      const { ok, server } = await res.json()
      expect(ok).toBe(true)
      expect(server).toEqual({
        id: a.id, slug: 'emerald-valley', name: 'Emerald Valley', description: 'Cozy survival', edition: 'java',
        address: `127.0.0.1:${peer.port}`, version: '1.21.4', modes: ['smp', 'survival'], website: 'https://emerald.example.org/', verified: false,
        rank: 2, monthlyVotes: 2, totalVotes: 7,
        online: true, players: { online: 21, max: 300 }, motd: 'Welcome!', latencyMs: expect.any(Number),
        lastPingAt: expect.stringMatching(/^2026-11-22T12:00:0\d\.\d{3}Z$/), uptime: 0.75,
        voteUrl: 'https://list.example.org/serveur/emerald-valley/voter',
        badgeUrl: 'https://list.example.org/api/v1/servers/emerald-valley/badge.svg',
        // No favicon in its answer: the site's default icon; no banner uploaded.
        iconUrl: 'https://list.example.org/api/v1/servers/emerald-valley/icon.png', bannerUrl: null,
        createdAt: new Date(NOW - 40 * DAY).toISOString(),
      })

      // Never pinged: offline, no uptime yet; the owner's version wins; IPv6 with port is bracketed.
      const other = (await (await call(app, 'GET', `/api/v1/servers/${b.slug}`)).json()).server
      expect(other).toMatchObject({
        rank: 1, monthlyVotes: 3, totalVotes: 3, address: '[::1]:19133', edition: 'bedrock',
        online: false, players: { online: 0, max: 0 }, motd: null, latencyMs: null, lastPingAt: null, uptime: null,
      })
    } finally {
      await peer.close()
    }
  })

  test('unknown and hidden slugs are 404 NOT_FOUND, on every public server route', async () => {
    const rt = testRuntime()
    const app = await testApp(rt)
    const { server } = await seedServer(rt, { name: 'Secret', port: 25566 })
    const listed = await call(app, 'GET', `/api/v1/servers/${server.slug}`)
    expect((await listed.json()).server.address).toBe('play.example.com:25566')
    rt.db.run('UPDATE server SET hidden = 1 WHERE id = ?', [server.id])
    for (const slug of [server.slug, 'nobody-here']) {
      for (const path of ['', '/history', '/history?format=csv', '/badge.svg']) {
        const res = await call(app, 'GET', `/api/v1/servers/${slug}${path}`)
        expect(res.status).toBe(404)
        expect(await res.json()).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: `no server with the slug "${slug}" is listed`, field: 'slug' } })
      }
    }
  })
})
