import { afterAll, expect, test } from 'bun:test'
import { describeBackends } from '../backends.ts'
import { call, cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'

// The database failing under the API's hooks: the API key's lookup (keyed routes) and, where the
// limits are kept in the database (PostgreSQL), the limiters. Each runs before the route, as a
// hook that answers a promise when the database does; a failure there must be answered 500
// INTERNAL in the contract's shape (never a rejection nobody handles, which ends a Bun process
// and here would fail the test run), and the site must answer as usual once the table is back.

afterAll(cleanupTemp)

describeBackends('database faults under the API hooks', (backend) => {
  test('a failing key lookup or limiter answers 500 INTERNAL, and the next request after recovery is served', async () => {
    const rt = await siteOn(backend)
    const app = await testApp(rt)
    const { server, key } = await seedServer(rt)
    const check = () => call(app, 'GET', '/api/v1/votes/check?pseudo=Steve', { headers: { 'X-Api-Key': key } })
    const record = () => call(app, 'GET', `/api/v1/servers/${server.slug}`)
    expect((await check()).status).toBe(200)
    expect((await record()).status).toBe(200)

    // The key's table gone: a key not checked within the last second is looked up, and fails.
    await rt.rows('ALTER TABLE api_key RENAME TO api_key_away')
    rt.clock.advance(2_000)
    const failed = await check()
    expect(failed.status).toBe(500)
    expect(await failed.json()).toEqual({ ok: false, error: { code: 'INTERNAL', message: expect.any(String) } })
    await rt.rows('ALTER TABLE api_key_away RENAME TO api_key')
    rt.clock.advance(2_000)
    expect((await check()).status).toBe(200)

    // The shared limits' table gone (PostgreSQL; on SQLite the limits are in memory).
    if (backend === 'postgres') {
      await rt.rows('ALTER TABLE rate_limit RENAME TO rate_limit_away')
      for (const answer of [await record(), await check()]) {
        expect(answer.status).toBe(500)
        expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('INTERNAL')
      }
      await rt.rows('ALTER TABLE rate_limit_away RENAME TO rate_limit')
    }
    expect((await record()).status).toBe(200)
    expect((await check()).status).toBe(200)
  })
})
