import { afterAll, describe, expect, test } from 'bun:test'
import type { ConfigInput } from '../../src/config/load.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { type BackendRuntime, call, cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'

afterAll(cleanupTemp)

// Votes arrive through the real route; the voter's address comes from X-Forwarded-For (trusted
// proxy on), as in-process requests have no socket.
async function setUp(backend: Backend, input: ConfigInput = {}, start?: number) {
  const rt = await siteOn(backend, { ...input, http: { trust_proxy: true, ...input.http } }, start)
  const { server } = await seedServer(rt, { name: 'Emerald Valley' })
  const app = await testApp(rt)
  const post = (pseudo: string, address: string, opts: { slug?: string; headers?: Record<string, string> } = {}) =>
    call(app, 'POST', `/serveur/${opts.slug ?? server.slug}/voter`, {
      body: { pseudo }, headers: { accept: 'application/json', 'x-forwarded-for': `10.9.9.9, ${address}`, ...opts.headers },
    })
  const form = (body: string, address: string, headers: Record<string, string> = {}) =>
    call(app, 'POST', `/serveur/${server.slug}/voter`, {
      body, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'x-forwarded-for': address, ...headers },
    })
  return { rt, server, app, post, form }
}

const count = async (rt: BackendRuntime, sql: string, ...args: string[]) => (await rt.row<{ n: number }>(sql, ...args))!.n

describeBackends('POST /serveur/{slug}/voter (JSON)', (backend) => {
  test('a good vote: 201 with the vote and nextVoteAt; stored with the right-most forwarded address', async () => {
    const { rt, server, post } = await setUp(backend)
    const r = await post('Steve', '203.0.113.7')
    expect(r.status).toBe(201)
    const body = await r.json()
    const now = rt.clock.now()
    expect(body).toEqual({
      ok: true,
      vote: { id: expect.any(String), pseudo: 'Steve', createdAt: new Date(now).toISOString() },
      nextVoteAt: new Date(now + 120 * 60_000).toISOString(),
    })
    expect(r.headers.get('ratelimit-limit')).toBe('10')
    expect(await rt.rows('SELECT v.id, v.server_id AS s, a.address FROM vote v JOIN vote_address a ON a.vote_id = v.id'))
      .toEqual([{ id: body.vote.id, s: server.id, address: '203.0.113.7' }])
  })

  test('a second vote inside the interval is refused by pseudo and by address, with nextVoteAt', async () => {
    const { rt, post } = await setUp(backend)
    const first = await (await post('Steve', '203.0.113.7')).json()
    rt.clock.advance(30 * 60_000)
    for (const [pseudo, address] of [['steve', '198.51.100.1'], ['Alex', '203.0.113.7']]) {
      const r = await post(pseudo, address)
      expect(r.status).toBe(429)
      expect(r.headers.get('retry-after')).toBe(String(90 * 60))
      const body = await r.json()
      expect(body.ok).toBe(false)
      expect(body.error.code).toBe('VOTE_TOO_SOON')
      expect(body.nextVoteAt).toBe(first.nextVoteAt)
    }
    expect(await count(rt, 'SELECT count(*) AS n FROM vote')).toBe(1)
    rt.clock.set(Date.parse(first.nextVoteAt))
    expect((await post('Steve', '203.0.113.7')).status).toBe(201)
  })

  test('the same pseudo may vote for another server', async () => {
    const { rt, post } = await setUp(backend)
    const other = (await seedServer(rt, { name: 'Other Place' })).server
    expect((await post('Steve', '203.0.113.7')).status).toBe(201)
    expect((await post('Steve', '203.0.113.7', { slug: other.slug })).status).toBe(201)
  })

  test('bad pseudos are refused with INVALID_PARAMETER naming pseudo', async () => {
    const { rt, post } = await setUp(backend)
    for (const bad of ['', 'ab', 'a'.repeat(17), 'has space', 'Stéve', '<script>', '.Steve']) {
      const r = await post(bad, '203.0.113.7')
      expect(r.status).toBe(400)
      const body = await r.json()
      expect(body.error.code).toBe('INVALID_PARAMETER')
      expect(body.error.message).toStartWith('pseudo must be')
    }
    expect(await count(rt, 'SELECT count(*) AS n FROM vote')).toBe(0)
  })

  test('unknown or hidden server: 404 NOT_FOUND', async () => {
    const { rt, server, post } = await setUp(backend)
    const r = await post('Steve', '203.0.113.7', { slug: 'no-such-server' })
    expect(r.status).toBe(404)
    expect((await r.json()).error.code).toBe('NOT_FOUND')
    await rt.rows('UPDATE server SET hidden = 1 WHERE id = ?', server.id)
    expect((await post('Steve', '203.0.113.7')).status).toBe(404)
  })

  test('a vote sees its server as it is now, whatever changed it since the last vote', async () => {
    const { rt, server, post } = await setUp(backend)
    const now = rt.clock.now()
    await rt.rows("INSERT INTO webhook (server_id, url, secret, created_at, updated_at) VALUES (?, 'https://hooks.example.com/v', 'whsec_x', ?, ?)", server.id, now, now)
    expect((await post('Steve', '203.0.113.1')).status).toBe(201)

    // Hidden by a statement the site did not make: refused, and nothing written.
    await rt.rows('UPDATE server SET hidden = 1 WHERE id = ?', server.id)
    const hidden = await post('Alex', '203.0.113.2')
    expect(hidden.status).toBe(404)
    expect((await hidden.json()).error.code).toBe('NOT_FOUND')
    await rt.rows('UPDATE server SET hidden = 0 WHERE id = ?', server.id)
    expect((await post('Alex', '203.0.113.2')).status).toBe(201)

    // The owner's account disabled, then enabled again.
    await rt.rows('UPDATE "user" SET disabled_at = ? WHERE id = ?', now, server.ownerId)
    expect((await post('Notch', '203.0.113.3')).status).toBe(404)
    await rt.rows('UPDATE "user" SET disabled_at = NULL WHERE id = ?', server.ownerId)

    // Renamed: the vote's delivery carries the new name.
    await rt.rows("UPDATE server SET name = 'Ruby Valley' WHERE id = ?", server.id)
    const { vote } = await (await post('Notch', '203.0.113.3')).json()
    const [delivery] = await rt.rows<{ payload: string }>('SELECT payload FROM delivery WHERE vote_id = ?', vote.id)
    expect(JSON.parse(delivery.payload).server.name).toBe('Ruby Valley')

    // Moved to Bedrock: a name only Bedrock allows is now accepted.
    expect((await post('Jeb Builder', '203.0.113.4')).status).toBe(400)
    await rt.rows("UPDATE server SET edition = 'bedrock' WHERE id = ?", server.id)
    expect((await post('Jeb Builder', '203.0.113.4')).status).toBe(201)
    expect(await rt.rows('SELECT pseudo FROM vote ORDER BY created_at')).toEqual(['Steve', 'Alex', 'Notch', 'Jeb Builder'].map((pseudo) => ({ pseudo })))
  })

  test('a cross-site Origin is refused (vote stuffing through visitors\' browsers); the site\'s own is accepted', async () => {
    const { rt, post } = await setUp(backend, { site: { base_url: 'https://vote.example.org' } })
    for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, { origin: 'http://vote.example.org' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const r = await post('Steve', '203.0.113.7', { headers })
      expect(r.status).toBe(403)
      expect((await r.json()).error.code).toBe('FORBIDDEN')
    }
    expect(await count(rt, 'SELECT count(*) AS n FROM vote')).toBe(0)
    expect((await post('Steve', '203.0.113.7', { headers: { origin: 'https://vote.example.org' } })).status).toBe(201)
  })

  test('vote attempts are limited per address, whatever their outcome', async () => {
    const { rt, post } = await setUp(backend, { limits: { vote_attempts_per_minute: 3 } })
    expect((await post('Steve', '203.0.113.7')).status).toBe(201)
    expect((await post('ab', '203.0.113.7')).status).toBe(400)
    expect((await post('Alex', '203.0.113.7')).status).toBe(429)
    const limited = await post('Herobrine', '203.0.113.7')
    expect(limited.status).toBe(429)
    expect((await limited.json()).error.code).toBe('RATE_LIMITED')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await post('Herobrine', '203.0.113.8')).status).toBe(201) // another address has its own quota
    rt.clock.advance(60_000)
    expect((await post('ab', '203.0.113.7')).status).toBe(400) // heard again, no longer limited
  })

  test('votes at a month boundary count in their own UTC month', async () => {
    const { rt, server, post, app } = await setUp(backend, {}, Date.UTC(2026, 9, 31, 23, 59, 59, 999))
    expect((await post('Steve', '203.0.113.1')).status).toBe(201)
    rt.clock.set(Date.UTC(2026, 10, 1))
    expect((await post('Alex', '203.0.113.2')).status).toBe(201)
    expect((await post('Notch', '203.0.113.3')).status).toBe(201)
    expect(await rt.rows('SELECT month, votes FROM server_month ORDER BY month')).toEqual([
      { month: '2026-10', votes: 1 }, { month: '2026-11', votes: 2 },
    ])
    expect((await rt.store.ranking.rankOf(server.id, '2026-10'))?.votes).toBe(1)
    // No job runs at midnight: the page simply reads the month of the clock.
    const page = await (await call(app, 'GET', `/serveur/${server.slug}`)).text()
    expect(page).toContain('with <strong>2</strong> votes.')
    const october = await (await call(app, 'GET', `/serveur/${server.slug}?month=2026-10`)).text()
    expect(october).toContain('with <strong>1</strong> vote.')
  })

  test('votes refused among votes sent together fail alone; the others are kept with their counters', async () => {
    const { rt, post } = await setUp(backend)
    // Steve from .1 conflicts with Steve from .2 (the pseudo) and with Alex from .1 (the address).
    // SQLite writes votes sent together in one transaction, in their order: the first Steve wins.
    // On PostgreSQL each vote is a transaction of its own, and the server's votes are written in
    // the order they take its lock: if another of the three goes first, the first Steve is the one
    // refused, and the remaining one of the other two is accepted.
    const answers = await Promise.all([post('Steve', '203.0.113.1'), post('Steve', '203.0.113.2'), post('Alex', '203.0.113.1'), post('Notch', '203.0.113.3')])
    const statuses = answers.map((r) => r.status)
    const firstSteveWon = [201, 429, 429, 201]
    if (backend === 'sqlite') expect(statuses).toEqual(firstSteveWon)
    else expect([firstSteveWon, [429, 201, 201, 201]]).toContainEqual(statuses)
    for (const r of answers.filter((a) => a.status === 429)) expect((await r.json()).error.code).toBe('VOTE_TOO_SOON')
    const accepted = [['Steve', 'steve'], ['Steve', 'steve'], ['Alex', 'alex'], ['Notch', 'notch']].filter((_, i) => statuses[i] === 201)
    expect((await rt.rows<{ pseudo: string }>('SELECT pseudo FROM vote')).map((v) => v.pseudo).sort()).toEqual(accepted.map(([p]) => p).sort())
    expect(await rt.row('SELECT count(*) AS n FROM vote_address')).toEqual({ n: accepted.length })
    expect(await rt.rows('SELECT votes FROM server_month')).toEqual([{ votes: accepted.length }])
    expect(await rt.rows('SELECT pseudo_key, votes FROM voter_month ORDER BY pseudo_key')).toEqual(accepted.map(([, key]) => ({ pseudo_key: key, votes: 1 })).sort((a, b) => a.pseudo_key.localeCompare(b.pseudo_key)))
  })

  test('two votes in one millisecond get distinct, increasing times', async () => {
    const { rt, post } = await setUp(backend)
    const answers = await Promise.all(['Alpha', 'Bravo', 'Charlie'].map((p, i) => post(p, `203.0.113.${i + 1}`)))
    const times = await Promise.all(answers.map(async (r) => Date.parse((await r.json()).vote.createdAt)))
    expect([...times].sort()).toEqual([0, 1, 2].map((i) => rt.clock.now() + i))
  })

  test('the vote and one queued delivery per configured channel are written together', async () => {
    const { rt, server, post } = await setUp(backend)
    const now = rt.clock.now()
    await rt.rows("INSERT INTO webhook (server_id, url, secret, created_at, updated_at) VALUES (?, 'https://hooks.example.com/v', 'whsec_x', ?, ?)", server.id, now, now)
    const { vote } = await (await post('Steve', '203.0.113.7')).json()
    expect(await rt.rows('SELECT channel, status FROM delivery WHERE vote_id = ?', vote.id)).toEqual([{ channel: 'webhook', status: 'pending' }])
    expect(await count(rt, "SELECT count(*) AS n FROM job WHERE kind = 'delivery'")).toBe(1)
  })
})

describeBackends('POST /serveur/{slug}/voter (HTML form)', (backend) => {
  test('a good vote redirects to a confirmation that tells when the next vote is possible', async () => {
    const { rt, server, form, app } = await setUp(backend)
    const r = await form('pseudo=Steve', '203.0.113.7')
    expect(r.status).toBe(303)
    const location = r.headers.get('location')!
    expect(location).toMatch(new RegExp(`^/serveur/${server.slug}/voter\\?vote=`))
    const page = await (await call(app, 'GET', location)).text()
    // The thank-you replaces the form: the next vote in UTC (site.js adds the visitor's own time),
    // and the way back to the server's page.
    const next = new Date(rt.clock.now() + 120 * 60_000).toISOString()
    expect(page).toContain('<h2 id="thanks">Thank you, Steve!</h2>')
    expect(page).toContain(`<time datetime="${next}">22 November 2026, 14:00 UTC</time><span data-local-time="${next}"></span>`)
    expect(page).toContain(`<a class="button button-primary" href="/serveur/${server.slug}">Back to Emerald Valley</a>`)
    expect(page).not.toContain('data-vote-form')
  })

  test('the confirmation opened again once the next vote is possible is the form, the name filled in', async () => {
    const { rt, form, app } = await setUp(backend)
    const location = (await form('pseudo=Steve', '203.0.113.7')).headers.get('location')!
    rt.clock.advance(120 * 60_000 - 1)
    expect(await (await call(app, 'GET', location)).text()).toContain('<h2 id="thanks">Thank you, Steve!</h2>')
    rt.clock.advance(1)
    const later = await (await call(app, 'GET', location)).text()
    expect(later).not.toContain('id="thanks"')
    expect(later).toContain('data-vote-form')
    expect(later).toMatch(/<input[^>]*id="pseudo"[^>]*value="Steve"/)
  })

  // After a vote the address bar holds the confirmation's address, and that is what a player copies
  // to invite friends: they get the form from it, not a thank-you with no way to vote.
  test('the confirmation opened by someone else leads to the form for their own name', async () => {
    const { server, form, app } = await setUp(backend)
    const location = (await form('pseudo=Steve', '203.0.113.7')).headers.get('location')!
    const page = await (await call(app, 'GET', location)).text()
    expect(page).toContain(`<p><a href="/serveur/${server.slug}/voter">Not Steve? Vote with your own name</a></p>`)
    expect(await (await call(app, 'GET', `/serveur/${server.slug}/voter`)).text()).toContain('data-vote-form')
  })

  test('a refused vote shows the form again with the reason, the typed name and the right status', async () => {
    const { form } = await setUp(backend)
    await form('pseudo=Steve', '203.0.113.7')
    const again = await form('pseudo=Alex', '203.0.113.7')
    expect(again.status).toBe(429)
    expect(again.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const page = await again.text()
    expect(page).toContain('You already voted for Emerald Valley recently')
    expect(page).toContain('22 November 2026, 14:00 UTC')
    expect(page).toContain('value="Alex"')

    const bad = await form('pseudo=%3Cb%3E', '203.0.113.8')
    expect(bad.status).toBe(400)
    const badPage = await bad.text()
    // Named as players see the field, tied to it; the JSON API keeps its parameter name.
    expect(badPage).toContain('<p>Your player name must be 3 to 16 letters, digits or underscores.</p>')
    expect(badPage).not.toContain('pseudo must')
    expect(badPage).toContain('aria-describedby="vote-error pseudo-hint" aria-invalid="true"')
    expect(badPage).toContain('value="&lt;b&gt;"')

    const cross = await form('pseudo=Notch', '203.0.113.9', { origin: 'https://evil.example' })
    expect(cross.status).toBe(403)
    expect(await cross.text()).toContain('Cross-site vote refused')
  })
})
