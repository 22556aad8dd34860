import { afterAll, expect, test } from 'bun:test'
import { describeBackends } from '../backends.ts'
import { call, cleanupTemp, siteOn, testApp } from '../helpers.ts'

// accounts.failed_logins_per_account bounds the passwords tried on one account per window, from
// any address. Its lock is read before a hash and a failure recorded after it: guesses sent at
// once must not all pass the same "not locked yet".

afterAll(cleanupTemp)

const PASSWORD = 'correct horse battery'

describeBackends('failed logins per account, under a burst', (backend) => {
  test('a burst of wrong passwords sent at once has no more than failed_logins_per_account of them tried', async () => {
    const rt = await siteOn(backend, { http: { trust_proxy: true }, accounts: { failed_logins_per_account: 3, login_attempts_per_minute: 1000 } })
    const app = await testApp(rt)
    const login = (password: string, from: string) =>
      call(app, 'POST', '/api/v1/auth/login', { body: { email: 'owner@example.com', password }, headers: { 'x-forwarded-for': from } })
    expect((await call(app, 'POST', '/api/v1/auth/register', { body: { email: 'owner@example.com', password: PASSWORD } })).status).toBe(201)
    // 20 guesses from 20 addresses, all in flight together (what a botnet does).
    const statuses = (await Promise.all(Array.from({ length: 20 }, (_, i) => login(`wrong password ${i}`, `203.0.113.${i + 1}`)))).map((r) => r.status)
    // Each 401 is a password tried.
    expect({ tried: statuses.filter((s) => s === 401).length, refused: statuses.filter((s) => s === 429).length }).toEqual({ tried: 3, refused: 17 })
    // The owner is refused like anyone until the window moves on.
    expect((await login(PASSWORD, '198.51.100.9')).status).toBe(429)
    rt.clock.advance(15 * 60_000)
    expect((await login(PASSWORD, '198.51.100.9')).status).toBe(200)
  })
})
