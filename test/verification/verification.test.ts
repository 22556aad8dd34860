import { afterAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import type { TSchema } from 'elysia'
import type { ConfigInput } from '../../src/config/load.ts'
import { createKey } from '../../src/keys/service.ts'
import { deleteServer } from '../../src/servers/service.ts'
import { recordVote } from '../../src/votes/service.ts'
import { ErrorBody } from '../../src/http/schema.ts'
import { CheckResult, ClaimResult, ServerStatistics, VoteList } from '../../src/verification/schema.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { call, cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'

afterAll(cleanupTemp)

const MIN = 60_000
const HOUR = 60 * MIN

// The documented response schemas are not enforced per request (see verification-schema.ts):
// every JSON answer these tests receive is held to them here instead.
const documented: [string, TSchema][] = [['/api/v1/votes/check', CheckResult], ['/api/v1/votes/claim', ClaimResult], ['/api/v1/votes', VoteList], ['/api/v1/server', ServerStatistics]]

async function conforming(path: string, r: Response): Promise<Response> {
  if (!r.headers.get('content-type')?.startsWith('application/json')) return r
  const body = await r.clone().json()
  const schema = r.status === 200 ? documented.find(([p]) => path.split('?')[0] === p)?.[1] : ErrorBody
  if (schema && !Value.Check(schema, body)) throw new Error(`${path} answered outside its documented schema: ${JSON.stringify(body)}`)
  return r
}

async function setup(backend: Backend, config: ConfigInput = {}, start?: number) {
  const rt = await siteOn(backend, config, start)
  const app = await testApp(rt)
  const seeded = await seedServer(rt)
  const vote = (pseudo: string, ...addresses: string[]) => recordVote(rt, seeded.server, pseudo, addresses)
  const get = async (path: string, headers: Record<string, string> = { 'X-Api-Key': seeded.key }) => conforming(path, await call(app, 'GET', path, { headers }))
  const post = async (path: string, headers: Record<string, string> = { 'X-Api-Key': seeded.key }) => conforming(path, await call(app, 'POST', path, { headers }))
  const check = async (query: string) => {
    const r = await get(`/api/v1/votes/check?${query}`)
    expect(r.status).toBe(200)
    return r.json()
  }
  const claim = async (query: string) => {
    const r = await post(`/api/v1/votes/claim?${query}`)
    expect(r.status).toBe(200)
    return r.json()
  }
  return { rt, app, ...seeded, vote, get, post, check, claim }
}

async function expectError(r: Response, status: number, code: string, message?: string | RegExp) {
  expect(r.status).toBe(status)
  expect(r.headers.get('content-type')).toStartWith('application/json')
  const body = await r.json()
  // error.field, where the schema or the service names one parameter, is the one the message starts with.
  const field = body.error?.field
  expect(body).toEqual({ ok: false, error: { code, message: expect.any(String), ...(field !== undefined && { field: expect.any(String) }) } })
  if (field !== undefined) expect(body.error.message).toStartWith(field)
  if (message !== undefined) expect(body.error.message).toMatch(message)
  return body
}

const iso = (ms: number) => new Date(ms).toISOString()

describeBackends('the verification API', (backend) => {
  describe('check', () => {
    test('reports the most recent vote in the window, with ms timestamps and nextVoteAt = vote + interval', async () => {
      const s = await setup(backend, { votes: { interval_minutes: 90 } })
      const first = await s.vote('Steve', '203.0.113.7')
      s.rt.clock.advance(2 * HOUR)
      const second = await s.vote('Steve', '203.0.113.7')
      s.rt.clock.advance(5 * MIN)
      const body = await s.check('pseudo=steve&window=1440')
      expect(body).toEqual({
        ok: true, hasVoted: true, pseudo: 'steve', votedAt: iso(second.vote.createdAt),
        nextVoteAt: iso(second.vote.createdAt + 90 * MIN), claimed: false, window: 1440,
      })
      expect(body.votedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      expect(second.vote.createdAt).toBeGreaterThan(first.vote.createdAt)
    })

    test('no vote: hasVoted false, nulls, the pseudo asked for echoed', async () => {
      const s = await setup(backend)
      expect(await s.check('pseudo=Nobody')).toEqual({ ok: true, hasVoted: false, pseudo: 'Nobody', votedAt: null, nextVoteAt: null, claimed: false, window: 120 })
      expect(await s.check('ip=198.51.100.1')).toEqual({ ok: true, hasVoted: false, pseudo: null, votedAt: null, nextVoteAt: null, claimed: false, window: 120 })
    })

    test('by ip alone it answers the pseudo of the vote found', async () => {
      const s = await setup(backend)
      await s.vote('Steve', '203.0.113.7')
      expect(await s.check('ip=203.0.113.7')).toMatchObject({ hasVoted: true, pseudo: 'Steve' })
    })

    test('neither pseudo nor ip: 400; both: one vote must match both', async () => {
      const s = await setup(backend)
      await s.vote('Steve', '203.0.113.7')
      await s.vote('Alex', '198.51.100.1')
      await expectError(await s.get('/api/v1/votes/check'), 400, 'INVALID_PARAMETER', 'pseudo or ip is required')
      await expectError(await s.get('/api/v1/votes/check?window=60'), 400, 'INVALID_PARAMETER', 'pseudo or ip is required')
      expect((await s.check('pseudo=Steve&ip=203.0.113.7')).hasVoted).toBe(true)
      // Each matches a vote, but not the same vote.
      expect((await s.check('pseudo=Steve&ip=198.51.100.1')).hasVoted).toBe(false)
      expect((await s.check('pseudo=Alex&ip=203.0.113.7')).hasVoted).toBe(false)
      expect(await s.check('pseudo=Alex&ip=198.51.100.1')).toMatchObject({ hasVoted: true, pseudo: 'Alex' })
    })

    test('IPv6 matches on the /64: another address of the same /64 yes, another /64 no', async () => {
      const s = await setup(backend)
      await s.vote('Steve', '2001:db8:1:2::10')
      expect((await s.check('ip=2001:db8:1:2:ffff:ffff:ffff:ffff')).hasVoted).toBe(true)
      expect((await s.check('ip=2001:db8:1:2::10')).hasVoted).toBe(true)
      expect((await s.check('ip=2001:db8:1:3::10')).hasVoted).toBe(false)
      expect((await s.check('ip=2001:db8:1::10')).hasVoted).toBe(false)
    })

    test('IPv4-mapped IPv6 is the IPv4 address, both ways', async () => {
      const s = await setup(backend)
      await s.vote('Steve', '203.0.113.7')
      await s.vote('Alex', '::ffff:198.51.100.1')
      expect((await s.check(`ip=${encodeURIComponent('::ffff:203.0.113.7')}`)).hasVoted).toBe(true)
      expect(await s.check('ip=198.51.100.1')).toMatchObject({ hasVoted: true, pseudo: 'Alex' })
      expect((await s.check('ip=203.0.113.8')).hasVoted).toBe(false)
    })

    test('a vote recorded with both families (dual-stack) matches either address', async () => {
      const s = await setup(backend)
      await s.vote('Steve', '198.51.100.9', '2001:db8:9:9::1')
      expect((await s.check('ip=198.51.100.9')).hasVoted).toBe(true)
      expect((await s.check('ip=2001:db8:9:9::abcd')).hasVoted).toBe(true)
    })

    test('a malformed ip or pseudo is 400 naming it', async () => {
      const s = await setup(backend)
      await expectError(await s.get('/api/v1/votes/check?ip=300.1.1.1'), 400, 'INVALID_PARAMETER', 'ip must be an IPv4 or IPv6 address')
      await expectError(await s.get('/api/v1/votes/check?ip=example.com'), 400, 'INVALID_PARAMETER', /^ip /)
      await expectError(await s.get('/api/v1/votes/check?pseudo=no'), 400, 'INVALID_PARAMETER', /^pseudo /)
      await expectError(await s.get('/api/v1/votes/check?pseudo=bad%20name'), 400, 'INVALID_PARAMETER', /^pseudo /)
      await expectError(await s.get('/api/v1/votes/check?pseudo=Steve&format=xml'), 400, 'INVALID_PARAMETER', 'format must be json or text')
    })

    test('an ip with a zone or with spaces around it is 400 naming ip, not read as the address', async () => {
      const s = await setup(backend)
      await s.vote('Steve', '203.0.113.7', '2001:db8:1:2::1')
      for (const ip of ['203.0.113.7%eth0', '2001:db8:1:2::1%eth0', 'fe80::1%1', ' 203.0.113.7', '203.0.113.7 ', '\t2001:db8:1:2::1']) {
        const body = await expectError(await s.get(`/api/v1/votes/check?ip=${encodeURIComponent(ip)}`), 400, 'INVALID_PARAMETER', 'ip must be an IPv4 or IPv6 address')
        expect({ ip, field: body.error.field }).toEqual({ ip, field: 'ip' })
      }
    })

    test('every refusal of one parameter names it in error.field, as the error schema documents', async () => {
      const s = await setup(backend)
      const cases: [string, string][] = [
        ['/api/v1/votes/check?ip=300.1.1.1', 'ip'], ['/api/v1/votes/check?ip=', 'ip'], ['/api/v1/votes/check?pseudo=no', 'pseudo'],
        ['/api/v1/votes/check?pseudo=Steve&window=0', 'window'], ['/api/v1/votes/check?pseudo=Steve&format=xml', 'format'],
        ['/api/v1/votes?since=yesterday', 'since'], ['/api/v1/votes?limit=0', 'limit'],
        ['/api/v1/server?month=2026-13', 'month'], ['/api/v1/server?month=2999-01', 'month'],
      ]
      for (const [path, field] of cases) {
        const body = await expectError(await s.get(path), 400, 'INVALID_PARAMETER')
        expect({ path, field: body.error.field }).toEqual({ path, field })
      }
    })

    test('checking changes nothing', async () => {
      const s = await setup(backend)
      await s.vote('Steve')
      for (let i = 0; i < 3; i++) expect((await s.check('pseudo=Steve')).claimed).toBe(false)
      expect(await s.claim('pseudo=Steve')).toMatchObject({ claimed: true })
    })
  })

  describe('window and duration', () => {
    test('bounds: 1 and 1440 accepted, 0, 1441, non-integers and junk refused with the contract message', async () => {
      const s = await setup(backend)
      for (const w of ['1', '1440']) expect((await s.check(`pseudo=Steve&window=${w}`)).window).toBe(Number(w))
      for (const w of ['0', '1441', '1.5', 'abc', '', '-5', '0x10', '5e1', '+5', '99999999999']) {
        await expectError(await s.get(`/api/v1/votes/check?pseudo=Steve&window=${w}`), 400, 'INVALID_PARAMETER', 'window must be an integer from 1 to 1440')
        await expectError(await s.get(`/api/v1/votes/check?pseudo=Steve&duration=${w}`), 400, 'INVALID_PARAMETER', 'duration must be an integer from 1 to 1440')
      }
      await expectError(await s.post('/api/v1/votes/claim?pseudo=Steve&window=1441'), 400, 'INVALID_PARAMETER', 'window must be an integer from 1 to 1440')
    })

    test('the window holds votes less than W minutes old', async () => {
      const s = await setup(backend)
      const v = await s.vote('Steve')
      s.rt.clock.set(v.vote.createdAt + MIN - 1)
      expect((await s.check('pseudo=Steve&window=1')).hasVoted).toBe(true)
      s.rt.clock.set(v.vote.createdAt + MIN)
      expect((await s.check('pseudo=Steve&window=1')).hasVoted).toBe(false)
      expect((await s.check('pseudo=Steve')).hasVoted).toBe(true)
      // Default 120: a vote exactly one interval old is out, the moment the player may vote again.
      s.rt.clock.set(v.vote.createdAt + 120 * MIN)
      expect(await s.check('pseudo=Steve')).toMatchObject({ hasVoted: false, window: 120 })
      expect((await s.check('pseudo=Steve&window=1440')).hasVoted).toBe(true)
      s.rt.clock.set(v.vote.createdAt + 1440 * MIN)
      expect((await s.check('pseudo=Steve&duration=1440')).hasVoted).toBe(false)
    })

    test('duration is a synonym; both given must be equal', async () => {
      const s = await setup(backend)
      expect((await s.check('pseudo=Steve&duration=30')).window).toBe(30)
      expect((await s.check('pseudo=Steve&duration=30&window=30')).window).toBe(30)
      await expectError(await s.get('/api/v1/votes/check?pseudo=Steve&window=30&duration=31'), 400, 'INVALID_PARAMETER', /window and duration/)
      await expectError(await s.post('/api/v1/votes/claim?pseudo=Steve&window=30&duration=31'), 400, 'INVALID_PARAMETER', /window and duration/)
    })
  })

  describe('claim (the state table)', () => {
    test('unclaimed → claimed: claimed true with the vote; check then reports claimed', async () => {
      const s = await setup(backend)
      const v = await s.vote('Steve', '203.0.113.7')
      expect(await s.claim('pseudo=STEVE')).toEqual({ ok: true, claimed: true, vote: { id: v.vote.id, pseudo: 'Steve', votedAt: iso(v.vote.createdAt) } })
      expect(await s.check('pseudo=Steve')).toMatchObject({ hasVoted: true, claimed: true })
      expect(await s.rt.row('SELECT claimed_at AS c FROM vote')).toEqual({ c: s.rt.clock.now() })
    })

    test('claimed → claimed: claimed false, reason ALREADY_CLAIMED, HTTP 200', async () => {
      const s = await setup(backend)
      await s.vote('Steve')
      await s.claim('pseudo=Steve')
      expect(await s.claim('pseudo=Steve')).toEqual({ ok: true, claimed: false, reason: 'ALREADY_CLAIMED' })
    })

    test('no recent vote: claimed false, reason NO_VOTE, nothing changes', async () => {
      const s = await setup(backend)
      expect(await s.claim('pseudo=Steve')).toEqual({ ok: true, claimed: false, reason: 'NO_VOTE' })
      const v = await s.vote('Steve')
      s.rt.clock.set(v.vote.createdAt + 120 * MIN)
      expect(await s.claim('pseudo=Steve')).toEqual({ ok: true, claimed: false, reason: 'NO_VOTE' })
      expect(await s.rt.row('SELECT claimed_at AS c FROM vote')).toEqual({ c: null })
      // A wider window reaches it.
      expect(await s.claim('pseudo=Steve&duration=121')).toMatchObject({ claimed: true })
    })

    test('claims the OLDEST unclaimed vote in the window, one per call', async () => {
      const s = await setup(backend)
      const a = await s.vote('Steve')
      s.rt.clock.advance(2 * HOUR)
      const b = await s.vote('Steve')
      s.rt.clock.advance(2 * HOUR)
      const c = await s.vote('Steve')
      s.rt.clock.advance(MIN)
      const claimed = [] as string[]
      for (let i = 0; i < 3; i++) claimed.push((await s.claim('pseudo=Steve&window=1440')).vote.id)
      expect(claimed).toEqual([a.vote.id, b.vote.id, c.vote.id])
      expect(await s.claim('pseudo=Steve&window=1440')).toMatchObject({ claimed: false, reason: 'ALREADY_CLAIMED' })
    })

    test('only votes inside the window are claimed; the default window is 120 minutes', async () => {
      const s = await setup(backend)
      const old = await s.vote('Steve')
      s.rt.clock.advance(3 * HOUR)
      const recent = await s.vote('Steve')
      expect((await s.claim('pseudo=Steve')).vote.id).toBe(recent.vote.id)
      expect((await s.claim('pseudo=Steve')).reason).toBe('ALREADY_CLAIMED')
      expect((await s.claim('pseudo=Steve&window=1440')).vote.id).toBe(old.vote.id)
    })

    test('pseudo is required; format=text answers 1 or 0', async () => {
      const s = await setup(backend)
      await expectError(await s.post('/api/v1/votes/claim'), 400, 'INVALID_PARAMETER', /^pseudo is required/)
      await s.vote('Steve')
      const first = await s.post('/api/v1/votes/claim?pseudo=Steve&format=text')
      expect([first.status, first.headers.get('content-type'), await first.text()]).toEqual([200, 'text/plain; charset=utf-8', '1'])
      expect(await (await s.post('/api/v1/votes/claim?pseudo=Steve&format=text')).text()).toBe('0')
    })

    test('a vote of another server is not seen or claimed', async () => {
      const s = await setup(backend)
      const other = await seedServer(s.rt, { name: 'Other Place', slug: 'other-place' }, 'other@example.com')
      await recordVote(s.rt, other.server, 'Steve', ['203.0.113.7'])
      expect((await s.check('pseudo=Steve')).hasVoted).toBe(false)
      expect((await s.check('ip=203.0.113.7')).hasVoted).toBe(false)
      expect((await s.claim('pseudo=Steve')).reason).toBe('NO_VOTE')
    })
  })

  describe('format=text', () => {
    test('check answers 1 or 0 as text/plain; errors are one line with the same status', async () => {
      const s = await setup(backend)
      await s.vote('Steve')
      const yes = await s.get('/api/v1/votes/check?pseudo=Steve&format=text')
      expect([yes.status, yes.headers.get('content-type'), await yes.text()]).toEqual([200, 'text/plain; charset=utf-8', '1'])
      const no = await s.get('/api/v1/votes/check?pseudo=Alex&format=text')
      expect(await no.text()).toBe('0')
      expect(no.headers.get('ratelimit-limit')).toBe('600')
      const bad = await s.get('/api/v1/votes/check?pseudo=Steve&window=0&format=text')
      expect([bad.status, bad.headers.get('content-type'), await bad.text()])
        .toEqual([400, 'text/plain; charset=utf-8', 'INVALID_PARAMETER: window must be an integer from 1 to 1440\n'])
      const unauth = await s.get('/api/v1/votes/check?pseudo=Steve&format=text', {})
      expect([unauth.status, await unauth.text()]).toEqual([401, expect.stringMatching(/^MISSING_KEY: .+\n$/)])
    })
  })

  describe('the API key', () => {
    test('accepted in any of the three places', async () => {
      const s = await setup(backend)
      await s.vote('Steve')
      const placements: [string, Record<string, string>][] = [
        [`&key=${s.key}`, {}],
        ['', { 'X-Api-Key': s.key }],
        ['', { Authorization: `Bearer ${s.key}` }],
        ['', { authorization: `bearer ${s.key}` }],
      ]
      for (const [query, headers] of placements) {
        const r = await s.get(`/api/v1/votes/check?pseudo=Steve${query}`, headers)
        expect(r.status).toBe(200)
        expect((await r.json()).hasVoted).toBe(true)
      }
    })

    test('several placements must agree: equal ones pass, different ones are 400', async () => {
      const s = await setup(backend)
      const other = (await createKey(s.rt, s.server.id)).key
      const ok = await s.get(`/api/v1/votes/check?pseudo=Steve&key=${s.key}`, { 'X-Api-Key': s.key, Authorization: `Bearer ${s.key}` })
      expect(ok.status).toBe(200)
      const conflicts: [string, Record<string, string>][] = [
        [`&key=${other}`, { 'X-Api-Key': s.key }],
        ['', { 'X-Api-Key': s.key, Authorization: `Bearer ${other}` }],
        [`&key=${s.key}`, { Authorization: `Bearer ${other}` }],
        [`&key=${s.key}`, { 'X-Api-Key': s.key, Authorization: 'Bearer vlk_unknown' }],
      ]
      for (const [query, headers] of conflicts) {
        await expectError(await s.get(`/api/v1/votes/check?pseudo=Steve${query}`, headers), 400, 'INVALID_PARAMETER', /^key: /)
      }
    })

    test('a key header sent twice is the key when both agree (not 401), and 400 when they differ', async () => {
      const s = await setup(backend)
      await s.vote('Steve')
      const other = (await createKey(s.rt, s.server.id)).key
      const twice = (name: string, a: string, b: string) => {
        const headers = new Headers()
        headers.append(name, a)
        headers.append(name, b)
        return s.app.handle(new Request('http://localhost/api/v1/votes/check?pseudo=Steve', { headers }))
      }
      for (const r of [await twice('X-Api-Key', s.key, s.key), await twice('Authorization', `Bearer ${s.key}`, `Bearer ${s.key}`), await twice('Authorization', 'Basic dXNlcjpwYXNz', `Bearer ${s.key}`)]) {
        expect(r.status).toBe(200)
        expect((await r.json()).hasVoted).toBe(true)
      }
      await expectError(await twice('X-Api-Key', s.key, other), 400, 'INVALID_PARAMETER', /^key: /)
      await expectError(await twice('Authorization', `Bearer ${s.key}`, `Bearer ${other}`), 400, 'INVALID_PARAMETER', /^key: /)
    })

    test('the key given twice in the query must agree too: different values are 400, not the last one silently', async () => {
      const s = await setup(backend)
      await s.vote('Steve')
      const other = (await createKey(s.rt, s.server.id)).key
      for (const query of [`key=vlk_unknown&key=${s.key}`, `key=${s.key}&key=vlk_unknown`, `key=${s.key}&key=${other}`]) {
        await expectError(await s.get(`/api/v1/votes/check?pseudo=Steve&${query}`, {}), 400, 'INVALID_PARAMETER', /^key: /)
        await expectError(await s.post(`/api/v1/votes/claim?pseudo=Steve&${query}`, {}), 400, 'INVALID_PARAMETER', /^key: /)
      }
      expect((await s.check(`pseudo=Steve&key=${s.key}&key=${s.key}`)).claimed).toBe(false)
      expect(await s.rt.row('SELECT count(*) AS n FROM vote WHERE claimed_at IS NOT NULL')).toEqual({ n: 0 })
    })

    test('any other parameter given twice with different values is 400 naming it; the same value twice is that value', async () => {
      const s = await setup(backend)
      await s.vote('Steve')
      const cases: [string, string, string][] = [
        ['GET', '/api/v1/votes/check?pseudo=Steve&pseudo=Alex', 'pseudo'],
        ['GET', '/api/v1/votes/check?ip=203.0.113.7&ip=198.51.100.1', 'ip'],
        ['GET', '/api/v1/votes/check?pseudo=Steve&window=60&window=1440', 'window'],
        ['GET', '/api/v1/votes/check?pseudo=Steve&format=json&format=text', 'format'],
        ['POST', '/api/v1/votes/claim?pseudo=Alex&pseudo=Steve', 'pseudo'],
        ['GET', '/api/v1/votes?limit=1&limit=1000', 'limit'],
        ['GET', '/api/v1/server?month=2026-10&month=2026-11', 'month'],
      ]
      for (const [method, path, field] of cases) {
        const r = await (method === 'GET' ? s.get(path) : s.post(path))
        expect(r.headers.get('ratelimit-limit')).toBe('600')
        const body = await expectError(r, 400, 'INVALID_PARAMETER', `${field} is given several times with different values; give it once`)
        expect(body.error.field).toBe(field)
      }
      // Nothing was claimed by the refused claim.
      expect((await s.check('pseudo=Steve')).claimed).toBe(false)
      expect(await s.check('pseudo=Steve&pseudo=Steve')).toMatchObject({ hasVoted: true, pseudo: 'Steve' })
      expect((await s.claim('pseudo=Steve&pseudo=Steve')).claimed).toBe(true)
      // The key comes first: without one it is 401 whatever the parameters.
      await expectError(await s.get('/api/v1/votes/check?pseudo=Steve&pseudo=Alex', {}), 401, 'MISSING_KEY')
    })

    test('no key: 401 MISSING_KEY; unknown, revoked or of a deleted server: 401 INVALID_KEY', async () => {
      const s = await setup(backend)
      const missing = await s.get('/api/v1/votes/check?pseudo=Steve', {})
      await expectError(missing, 401, 'MISSING_KEY')
      expect(missing.headers.get('www-authenticate')).toStartWith('Bearer')
      await expectError(await s.get('/api/v1/votes/check?pseudo=Steve&key=', {}), 401, 'MISSING_KEY')
      await expectError(await s.get('/api/v1/votes/check?pseudo=Steve', { 'X-Api-Key': '' }), 401, 'MISSING_KEY')
      // Another scheme may belong to a proxy in front: it is not taken for a key.
      await expectError(await s.get('/api/v1/votes/check?pseudo=Steve', { Authorization: 'Basic dXNlcjpwYXNz' }), 401, 'MISSING_KEY')
      await expectError(await s.get('/api/v1/votes/check?pseudo=Steve', { 'X-Api-Key': 'vlk_notakey' }), 401, 'INVALID_KEY', 'the API key is unknown or revoked')
      await expectError(await s.get('/api/v1/votes/check?pseudo=Steve', { 'X-Api-Key': 'x'.repeat(5000) }), 401, 'INVALID_KEY')
      // 401 comes before the parameters are looked at.
      await expectError(await s.get('/api/v1/votes/check?window=0', {}), 401, 'MISSING_KEY')

      const revoked = await createKey(s.rt, s.server.id)
      await s.rt.store.keys.revoke(revoked.id, s.server.id, s.rt.clock.now())
      await expectError(await s.get('/api/v1/votes/check?pseudo=Steve', { 'X-Api-Key': revoked.key }), 401, 'INVALID_KEY')

      const other = await seedServer(s.rt, { name: 'Gone Server', slug: 'gone' }, 'gone@example.com')
      expect((await s.get('/api/v1/server', { 'X-Api-Key': other.key })).status).toBe(200)
      await deleteServer(s.rt, other.server, other.owner)
      s.rt.clock.advance(1000)
      await expectError(await s.get('/api/v1/server', { 'X-Api-Key': other.key }), 401, 'INVALID_KEY')
    })

    test('a key sees only its own server', async () => {
      const s = await setup(backend)
      const other = await seedServer(s.rt, { name: 'Other Place', slug: 'other-place' }, 'other@example.com')
      const r = await s.get('/api/v1/server', { 'X-Api-Key': other.key })
      expect((await r.json()).server).toEqual({ id: other.server.id, slug: 'other-place', name: 'Other Place' })
    })
  })

  describe('rate limit per key', () => {
    test('RateLimit headers on every answer, 429 RATE_LIMITED with Retry-After past the limit, per key', async () => {
      const s = await setup(backend, { limits: { keyed_per_minute: 3 } })
      const remaining: (string | null)[] = []
      for (const path of ['/api/v1/votes/check?pseudo=Steve', '/api/v1/votes/check?window=0', '/api/v1/votes?limit=5']) {
        const r = await s.get(path)
        expect(r.headers.get('ratelimit-limit')).toBe('3')
        expect(r.headers.get('ratelimit-reset')).toBe('60')
        remaining.push(r.headers.get('ratelimit-remaining'))
      }
      expect(remaining).toEqual(['2', '1', '0'])
      s.rt.clock.advance(20_000)
      const limited = await s.post('/api/v1/votes/claim?pseudo=Steve')
      await expectError(limited, 429, 'RATE_LIMITED')
      expect(limited.headers.get('retry-after')).toBe('40')
      expect(limited.headers.get('ratelimit-remaining')).toBe('0')
      const text = await s.get('/api/v1/votes/check?pseudo=Steve&format=text')
      expect([text.status, text.headers.get('content-type'), text.headers.get('retry-after')]).toEqual([429, 'text/plain; charset=utf-8', '40'])
      expect(await text.text()).toStartWith('RATE_LIMITED: ')
      // Another key has its own quota; the first one is back once the window has moved on.
      const second = (await createKey(s.rt, s.server.id)).key
      expect((await s.get('/api/v1/server', { 'X-Api-Key': second })).status).toBe(200)
      s.rt.clock.advance(40_000)
      const again = await s.get('/api/v1/server')
      expect([again.status, again.headers.get('ratelimit-remaining')]).toEqual([200, '2'])
    })
  })

  describe('vote list', () => {
    test('votes after since, oldest first, with claimed; next continues; since exclusive', async () => {
      const s = await setup(backend)
      const votes = []
      for (const p of ['Steve', 'Alex', 'Herobrine', 'Notch']) votes.push((await s.vote(p)).vote)
      await s.claim('pseudo=Alex')
      const page1 = await (await s.get('/api/v1/votes?limit=3')).json()
      expect(page1).toEqual({
        ok: true,
        votes: votes.slice(0, 3).map((v) => ({ id: v.id, pseudo: v.pseudo, createdAt: iso(v.createdAt), claimed: v.pseudo === 'Alex' })),
        next: iso(votes[2].createdAt),
      })
      const page2 = await (await s.get(`/api/v1/votes?limit=3&since=${page1.next}`)).json()
      expect(page2.votes.map((v: { id: string }) => v.id)).toEqual([votes[3].id])
      const page3 = await (await s.get(`/api/v1/votes?since=${page2.next}`)).json()
      expect(page3).toEqual({ ok: true, votes: [], next: page2.next })
      // The four votes share one clock millisecond: created_at was bumped to keep them apart.
      expect(new Set(votes.map((v) => v.createdAt)).size).toBe(4)
    })

    test('since defaults to and is clamped to 7 days ago; limit 1–1000, default 100', async () => {
      const s = await setup(backend)
      const start = s.rt.clock.now()
      const old = (await s.vote('Steve')).vote
      s.rt.clock.advance(3 * 24 * HOUR)
      const recent = (await s.vote('Alex')).vote
      s.rt.clock.advance(4 * 24 * HOUR + MIN)
      const now = s.rt.clock.now()
      const all = await (await s.get('/api/v1/votes')).json()
      expect(all.votes.map((v: { id: string }) => v.id)).toEqual([recent.id])
      const clamped = await (await s.get(`/api/v1/votes?since=${iso(start - HOUR)}`)).json()
      expect(clamped.votes.map((v: { id: string }) => v.id)).toEqual([recent.id])
      expect(old.createdAt).toBeLessThan(now - 7 * 24 * HOUR)
      s.rt.clock.advance(3 * 24 * HOUR)
      expect(await (await s.get('/api/v1/votes')).json()).toEqual({ ok: true, votes: [], next: iso(s.rt.clock.now() - 7 * 24 * HOUR) })

      for (let i = 0; i < 105; i++) await s.vote(`voter_${i}`)
      expect((await (await s.get('/api/v1/votes')).json()).votes).toHaveLength(100)
      expect((await (await s.get('/api/v1/votes?limit=1')).json()).votes).toHaveLength(1)
      expect((await (await s.get('/api/v1/votes?limit=1000')).json()).votes).toHaveLength(105)
      for (const l of ['0', '1001', '2.5', 'ten']) {
        await expectError(await s.get(`/api/v1/votes?limit=${l}`), 400, 'INVALID_PARAMETER', 'limit must be an integer from 1 to 1000')
      }
    })

    test('since accepts ISO 8601 forms (offsets, no zone = UTC, more digits) and refuses anything else', async () => {
      const s = await setup(backend)
      s.rt.clock.advance(MIN)
      const v = (await s.vote('Steve')).vote
      const t = new Date(v.createdAt)
      const before = new Date(v.createdAt - 1)
      for (const since of [iso(before.getTime()), iso(before.getTime()).replace('Z', '+00:00'), iso(before.getTime()).replace('Z', ''), iso(before.getTime()).replace('Z', '999Z')]) {
        expect((await (await s.get(`/api/v1/votes?since=${encodeURIComponent(since)}`)).json()).votes).toHaveLength(1)
      }
      // 13:00:00+01:00 is 12:00:00Z: the vote at exactly that time is excluded (since is exclusive).
      const shifted = `${t.getUTCFullYear()}-11-22T13:01:00.000+01:00`
      expect(iso(v.createdAt)).toBe('2026-11-22T12:01:00.000Z')
      expect((await (await s.get(`/api/v1/votes?since=${encodeURIComponent(shifted)}`)).json()).votes).toHaveLength(0)
      for (const bad of ['yesterday', '2026-11-22', '2026-02-30T00:00:00Z', '2026-11-22T25:00:00Z', '1732270000000', '']) {
        await expectError(await s.get(`/api/v1/votes?since=${encodeURIComponent(bad)}`), 400, 'INVALID_PARAMETER', /^since must be an ISO 8601 timestamp/)
      }
    })

    test('an offset whose + was sent unencoded (which a query string reads as a space) is still that offset', async () => {
      const s = await setup(backend)
      s.rt.clock.advance(MIN)
      const v = (await s.vote('Steve')).vote
      expect(iso(v.createdAt)).toBe('2026-11-22T12:01:00.000Z')
      // Java's OffsetDateTime#toString appended as is: 13:00:59.999+01:00 is 12:00:59.999Z, before the vote.
      for (const since of ['2026-11-22T13:00:59.999+01:00', '2026-11-22T13:00:59.999+0100', '2026-11-22T13:00:59.999+01']) {
        const r = await s.get(`/api/v1/votes?since=${since}`)
        expect({ since, status: r.status }).toEqual({ since, status: 200 })
        expect((await r.json()).votes.map((x: { id: string }) => x.id)).toEqual([v.id])
      }
      expect((await (await s.get('/api/v1/votes?since=2026-11-22T13:01:00.000+01:00')).json()).votes).toEqual([])
      // A space anywhere else is still refused.
      await expectError(await s.get('/api/v1/votes?since=2026-11-22T13:01:00.000%20'), 400, 'INVALID_PARAMETER', /^since must be an ISO 8601 timestamp/)
    })

    test('a since of the years 1 to 99 is an old since like any other: clamped, not refused', async () => {
      const s = await setup(backend)
      const v = (await s.vote('Steve')).vote
      // The first: .NET's DateTime.MinValue as its "o" format writes it, a plugin's natural "from the start".
      for (const since of ['0001-01-01T00:00:00.0000000', '0001-01-01T00:00:00Z', '0099-12-31T23:59:59.999Z', '0000-01-01T00:00:00Z']) {
        const r = await s.get(`/api/v1/votes?since=${encodeURIComponent(since)}`)
        expect({ since, status: r.status }).toEqual({ since, status: 200 })
        expect(await r.json()).toEqual({ ok: true, votes: [{ id: v.id, pseudo: 'Steve', createdAt: iso(v.createdAt), claimed: false }], next: iso(v.createdAt) })
      }
      await expectError(await s.get(`/api/v1/votes?since=${encodeURIComponent('0001-02-29T00:00:00Z')}`), 400, 'INVALID_PARAMETER', /^since must be an ISO 8601 timestamp/)
    })
  })

  describe('server statistics', () => {
    test('rank, monthly and total votes, top 10 voters of the month; past months on request', async () => {
      const s = await setup(backend, {}, Date.UTC(2026, 9, 15))
      const rival = await seedServer(s.rt, { name: 'Rival', slug: 'rival' }, 'rival@example.com')
      s.rt.clock.set(Date.UTC(2026, 9, 31, 20, 0))
      await s.vote('OctoberOnly')
      s.rt.clock.set(Date.UTC(2026, 10, 1, 0, 0))
      // 12 voters; voter_i votes i+1 times (one vote per 2 h round) so the order is known.
      for (let round = 0; round < 12; round++) {
        for (let i = round; i < 12; i++) await s.vote(`voter_${i}`)
        s.rt.clock.advance(2 * HOUR + MIN)
      }
      for (let i = 0; i < 100; i++) await recordVote(s.rt, rival.server, `fan_${i}`, [])
      const body = await (await s.get('/api/v1/server')).json()
      expect(body).toEqual({
        ok: true,
        server: { id: s.server.id, slug: s.server.slug, name: s.server.name },
        month: '2026-11',
        rank: 2,
        monthlyVotes: 78,
        totalVotes: 79,
        topVoters: Array.from({ length: 10 }, (_, k) => ({ pseudo: `voter_${11 - k}`, votes: 12 - k })),
      })
      const october = await (await s.get('/api/v1/server?month=2026-10')).json()
      expect(october).toMatchObject({ month: '2026-10', rank: 1, monthlyVotes: 1, totalVotes: 79, topVoters: [{ pseudo: 'OctoberOnly', votes: 1 }] })
      await expectError(await s.get('/api/v1/server?month=2026-12'), 400, 'INVALID_PARAMETER', /^month must not be after/)
      await expectError(await s.get('/api/v1/server?month=2026-13'), 400, 'INVALID_PARAMETER', 'month must be a month written YYYY-MM')
    })

    test('a hidden server has rank null', async () => {
      const s = await setup(backend)
      await s.vote('Steve')
      await s.rt.store.servers.update({ ...s.server, hidden: true })
      expect(await (await s.get('/api/v1/server')).json()).toMatchObject({ rank: null, monthlyVotes: 1, totalVotes: 1 })
    })
  })

  describe('other errors', () => {
    test('unknown path 404; a failure inside is 500 INTERNAL without details', async () => {
      const s = await setup(backend)
      await expectError(await s.get('/api/v1/votes/nope'), 404, 'NOT_FOUND')
      expect((await s.get('/api/v1/server')).status).toBe(200)
      // A storage failure (the table gone under the prepared statement).
      await s.rt.rows('DROP TABLE vote_address')
      const body = await expectError(await s.get('/api/v1/votes/check?ip=203.0.113.7'), 500, 'INTERNAL', 'internal error')
      expect(JSON.stringify(body)).not.toContain('at ')
      expect(s.rt.log.lines.some((l) => l.includes('unhandled error'))).toBe(true)
    })

    test('a failure of a request whose key is in its address logs the address without the key', async () => {
      const s = await setup(backend)
      await s.rt.rows('DROP TABLE vote_address')
      await expectError(await s.get(`/api/v1/votes/check?ip=203.0.113.7&key=${s.key}`, {}), 500, 'INTERNAL', 'internal error')
      const logged = s.rt.log.lines.filter((l) => l.includes('unhandled error'))
      expect(logged.length).toBe(1)
      expect(logged[0]).not.toContain(s.key)
      expect(logged[0]).toContain('/api/v1/votes/check?ip=203.0.113.7&key=[hidden]')
    })
  })
})
