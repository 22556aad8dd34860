import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createKey } from '../../src/keys/service.ts'
import { backends, closeTestSites } from '../backends.ts'
import { cleanupTemp } from '../helpers.ts'
import type { RunningServer } from '../real-server.ts'
import { until } from '../until.ts'
import { addressOf, clusterSite, logged, vote, type ClusterSite } from './instances.ts'

afterAll(cleanupTemp)

const keyed = (instance: RunningServer, key: string, method: string, path: string) =>
  fetch(`${instance.url}${path}`, { method, headers: { 'x-api-key': key } }).then(async (r) => ({ status: r.status, body: await r.json() }))

describe.if(backends.includes('postgres'))('two `votelist serve` instances of one site on PostgreSQL', () => {
  let site: ClusterSite
  let a: RunningServer
  let b: RunningServer
  beforeAll(async () => {
    site = await clusterSite({ keyedPerMinute: 20, pingIntervalSeconds: 1 })
    ;[a, b] = await Promise.all([site.start(), site.start()])
  }, 120_000)
  afterAll(async () => {
    site?.stop()
    await closeTestSites()
  })

  test('votes through both are recorded, and each is delivered once on each channel', async () => {
    const pseudos = Array.from({ length: 20 }, (_, i) => `both${i}`)
    const answers = await Promise.all(pseudos.map((p, i) => vote(i % 2 ? a : b, site.server.slug, p, addressOf(1000 + i))))
    expect(answers.map((r) => r.status)).toEqual(pseudos.map(() => 201))
    const ids = answers.map((r) => r.body.vote.id)
    expect((await site.rt.rows<{ id: string }>('SELECT id FROM vote WHERE id = ANY(?::text[])', ids)).map((r) => r.id).sort()).toEqual(ids.toSorted())
    const votifier = () => site.votifier.votes.filter((v) => pseudos.includes(v.username))
    const webhook = () => site.webhook.received.filter((h) => pseudos.includes(h.json.vote.pseudo))
    await until(() => votifier().length >= 20 && webhook().length >= 20, 'the votes at both receivers')
    expect(votifier().map((v) => v.username).sort()).toEqual(pseudos.toSorted())
    expect(webhook().map((h) => h.json.vote.pseudo).sort()).toEqual(pseudos.toSorted())
    expect(new Set(webhook().map((h) => h.headers['x-tsm-delivery'])).size).toBe(20)
  })

  test('the same player voting at the same moment on both: one 201 and one 429 VOTE_TOO_SOON, five times over', async () => {
    for (let i = 0; i < 5; i++) {
      const [x, y] = await Promise.all([a, b].map((instance, j) => vote(instance, site.server.slug, `same${i}`, addressOf(2000 + 2 * i + j))))
      expect([x.status, y.status].sort()).toEqual([201, 429])
      expect((x.status === 429 ? x : y).body.error.code).toBe('VOTE_TOO_SOON')
    }
  })

  test('claims racing on both instances: the vote is claimed exactly once', async () => {
    for (let i = 0; i < 3; i++) {
      const { key } = await createKey(site.rt, site.server.id)
      expect((await vote(a, site.server.slug, `claim${i}`, addressOf(3000 + i))).status).toBe(201)
      const answers = await Promise.all(Array.from({ length: 10 }, (_, j) => keyed(j % 2 ? a : b, key, 'POST', `/api/v1/votes/claim?pseudo=claim${i}`)))
      expect(answers.every((r) => r.status === 200)).toBe(true)
      expect(answers.filter((r) => r.body.claimed)).toHaveLength(1)
    }
  })

  test('the per-key limit holds across both: 20 checks a minute, whichever instance answers', async () => {
    const { key } = await createKey(site.rt, site.server.id)
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => keyed(i % 2 ? a : b, key, 'GET', '/api/v1/votes/check?pseudo=Steve')))
    expect(answers.filter((r) => r.status === 200)).toHaveLength(20)
    expect(answers.filter((r) => r.status === 429).map((r) => r.body.error.code)).toEqual(Array(10).fill('RATE_LIMITED'))
  })

  test('a key revoked on one instance is refused by the other within a second', async () => {
    const { key, id } = await createKey(site.rt, site.server.id)
    expect((await keyed(b, key, 'GET', '/api/v1/server')).status).toBe(200) // B has it cached
    const login = await fetch(`${a.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: site.owner.email, password: 'correct horse battery' }) })
    expect(login.status).toBe(200)
    const cookie = login.headers.get('set-cookie')!.split(';')[0]
    expect((await fetch(`${a.url}/api/v1/me/servers/${site.server.slug}/keys/${id}`, { method: 'DELETE', headers: { cookie } })).status).toBe(200)
    const revokedAt = performance.now()
    // Every request B accepted after the revocation started within a second of it.
    let lastAcceptedStart = -1
    await until(async () => {
      const started = performance.now() - revokedAt
      const status = (await keyed(b, key, 'GET', '/api/v1/server')).status
      if (status === 200) lastAcceptedStart = started
      return status === 401
    }, 'B refusing the revoked key')
    expect(lastAcceptedStart).toBeLessThan(1000)
  })

  test('one ping round per period across both instances', async () => {
    const rounds = () => [...logged(a, 'ping round'), ...logged(b, 'ping round')].map((r) => r.t as string)
    await until(() => new Set(rounds()).size >= 5, 'five ping rounds')
    const seen = rounds()
    expect(seen.length).toBe(new Set(seen).size)
    const samples = await site.rt.rows<{ t: number; n: number }>('SELECT t, count(*) AS n FROM ping_sample GROUP BY t')
    expect(samples.every((s) => s.n === 1)).toBe(true)
  })
})
