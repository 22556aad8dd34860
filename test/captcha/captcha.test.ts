import { afterAll, describe, expect, test } from 'bun:test'
import { solveChallenge, type Challenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { registerSiteWork } from '../../src/site.ts'
import { call, cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

// The captcha on, with a small proof of work so the real solver finishes in milliseconds. The
// clock starts at the real time: altcha-lib also checks expiry against Date.now().
async function setUp() {
  const rt = testRuntime({ votes: { captcha: 'pow', captcha_difficulty: 20, captcha_ttl: '5m' }, http: { trust_proxy: true } }, Date.now())
  const { server } = await seedServer(rt)
  const app = await testApp(rt)
  let n = 0
  const challenge = async () => {
    const r = await call(app, 'GET', '/api/v1/vote-challenge')
    expect(r.status).toBe(200)
    expect(r.headers.get('cache-control')).toBe('no-store')
    return (await r.json()) as Challenge
  }
  // What the widget puts in the form's `altcha` field: base64 of {challenge, solution}.
  const solve = async (c: Challenge) => {
    const solution = await solveChallenge({ challenge: c, deriveKey })
    expect(solution).not.toBeNull()
    return btoa(JSON.stringify({ challenge: c, solution }))
  }
  const vote = (pseudo: string, altcha: string | undefined) =>
    call(app, 'POST', `/serveur/${server.slug}/voter`, {
      body: altcha === undefined ? { pseudo } : { pseudo, altcha },
      headers: { accept: 'application/json', 'x-forwarded-for': `203.0.113.${++n}` },
    })
  return { rt, app, challenge, solve, vote }
}

const errorOf = async (r: Response) => {
  expect(r.status).toBe(400)
  const body = await r.json()
  expect(body.error.code).toBe('INVALID_PARAMETER')
  return body.error.message as string
}

describe('proof-of-work captcha', () => {
  test('a solved challenge lets the vote through, once; a replayed solution is refused', async () => {
    const { rt, challenge, solve, vote } = await setUp()
    const c = await challenge()
    expect(c.parameters.algorithm).toBe('PBKDF2/SHA-256')
    expect(c.signature).toMatch(/^[0-9a-f]{64}$/)
    const answer = await solve(c)
    expect((await vote('Steve', answer)).status).toBe(201)
    expect(await errorOf(await vote('Alex', answer))).toBe('altcha: this captcha answer was already used: solve a new one and send the form again')
    expect((rt.db.query('SELECT count(*) AS n FROM vote').get() as { n: number }).n).toBe(1)
    expect((await vote('Alex', await solve(await challenge()))).status).toBe(201)
  })

  test('concurrent submissions of one solution: exactly one vote', async () => {
    const { rt, challenge, solve, vote } = await setUp()
    const answer = await solve(await challenge())
    const statuses = await Promise.all(['Alpha', 'Bravo', 'Charlie', 'Delta'].map((p) => vote(p, answer).then((r) => r.status)))
    expect(statuses.sort()).toEqual([201, 400, 400, 400])
    expect((rt.db.query('SELECT count(*) AS n FROM vote').get() as { n: number }).n).toBe(1)
  })

  test('an expired challenge is refused', async () => {
    const { rt, challenge, solve, vote } = await setUp()
    const answer = await solve(await challenge())
    rt.clock.advance(5 * 60_000 + 1000)
    expect(await errorOf(await vote('Steve', answer))).toBe('altcha: the captcha expired: solve a new one and send the form again')
  })

  test('missing, malformed, forged and tampered answers are refused', async () => {
    const { challenge, solve, vote } = await setUp()
    expect(await errorOf(await vote('Steve', undefined))).toStartWith('altcha: the captcha is missing')
    expect(await errorOf(await vote('Steve', 'not base64 json'))).toBe('altcha: the captcha answer is malformed')
    // The widget's test mode produces this; it must never pass.
    expect(await errorOf(await vote('Steve', btoa(JSON.stringify({ challenge: null, solution: null, test: true }))))).toBe('altcha: the captcha answer is malformed')

    const c = await challenge()
    const good = JSON.parse(atob(await solve(c)))
    const wrongKey = { ...good, solution: { ...good.solution, derivedKey: '00'.repeat(32) } }
    expect(await errorOf(await vote('Steve', btoa(JSON.stringify(wrongKey))))).toBe('altcha: the captcha answer is not valid')
    const longer = { ...good, challenge: { ...good.challenge, parameters: { ...good.challenge.parameters, expiresAt: good.challenge.parameters.expiresAt + 3600 } } }
    expect(await errorOf(await vote('Steve', btoa(JSON.stringify(longer))))).toBe('altcha: the captcha answer is not valid')
    expect((await vote('Steve', btoa(JSON.stringify(good)))).status).toBe(201)
  })

  test('a mistyped pseudo does not use up the solved captcha', async () => {
    const { challenge, solve, vote } = await setUp()
    const answer = await solve(await challenge())
    expect(await errorOf(await vote('x', answer))).toStartWith('pseudo must be')
    expect((await vote('Steve', answer)).status).toBe(201)
  })

  test('used solutions are purged by a scheduler task once their challenge has expired', async () => {
    const { rt, challenge, solve, vote } = await setUp()
    expect((await vote('Steve', await solve(await challenge()))).status).toBe(201)
    const rows = () => (rt.db.query('SELECT count(*) AS n FROM captcha_use').get() as { n: number }).n
    expect(rows()).toBe(1)
    registerSiteWork(rt)
    await rt.scheduler.runNow('captcha.purge')
    expect(rows()).toBe(1)
    rt.clock.advance(5 * 60_000 + 1000)
    await rt.scheduler.runNow('captcha.purge')
    expect(rows()).toBe(0)
  })

  test('with the captcha off there is no challenge to fetch', async () => {
    const rt = testRuntime()
    const app = await testApp(rt)
    const r = await call(app, 'GET', '/api/v1/vote-challenge')
    expect(r.status).toBe(404)
    expect((await r.json()).error.code).toBe('NOT_FOUND')
  })
})
