import { afterAll, expect, test } from 'bun:test'
import { call, cleanupTemp, testApp, testRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

// One address written in several Unicode forms is one address: the composed and decomposed é
// (macOS and Windows keyboards differ), fullwidth letters; and an address with invisible
// characters in it (a look-alike of another account's) is refused.
const password = 'correct horse battery'
type App = Awaited<ReturnType<typeof testApp>>
const register = (app: App, email: string) => call(app, 'POST', '/api/v1/auth/register', { body: { email, password } })
const login = (app: App, email: string, pw = password) => call(app, 'POST', '/api/v1/auth/login', { body: { email, password: pw } })

test('an address in another Unicode form is the same account: 409 at sign-up, the account at login', async () => {
  const app = await testApp(testRuntime({ accounts: { login_attempts_per_minute: 100 } }))
  const composed = 'jos\u00e9@example.com'
  const decomposed = 'jose\u0301@example.com'
  const first = await register(app, composed)
  expect(first.status).toBe(201)
  const id = (await first.json()).user.id
  expect((await register(app, decomposed)).status).toBe(409)
  expect((await register(app, 'JOSE\u0301@EXAMPLE.COM')).status).toBe(409)
  const fromOther = await login(app, decomposed)
  expect(fromOther.status).toBe(200)
  expect((await fromOther.json()).user.id).toBe(id)

  expect((await register(app, 'admin@example.com')).status).toBe(201)
  expect((await register(app, '\uff41dmin@example.com')).status).toBe(409)
})

test('an address with invisible characters is refused (400 naming email)', async () => {
  const app = await testApp(testRuntime({ accounts: { login_attempts_per_minute: 100 } }))
  expect((await register(app, 'admin@example.com')).status).toBe(201)
  for (const email of ['admin\u200b@example.com', 'ad\u00admin@example.com', 'admin@exa\u2060mple.com', 'admin\u0000@example.com']) {
    const r = await register(app, email)
    expect(r.status).toBe(400)
    expect((await r.json()).error.field).toBe('email')
  }
})

test('the failed logins of every form of an address count against the one account', async () => {
  const app = await testApp(testRuntime({ accounts: { login_attempts_per_minute: 100, failed_logins_per_account: 3 } }))
  expect((await register(app, 'jos\u00e9@example.com')).status).toBe(201)
  expect((await login(app, 'jos\u00e9@example.com', 'wrong password 1')).status).toBe(401)
  expect((await login(app, 'jose\u0301@example.com', 'wrong password 2')).status).toBe(401)
  expect((await login(app, 'JOS\u00c9@example.com', 'wrong password 3')).status).toBe(401)
  expect((await login(app, 'jose\u0301@example.com', 'wrong password 4')).status).toBe(429)
})
