import { afterAll, expect, test } from 'bun:test'
import { call, cleanupTemp, testApp, testRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

// The per-account lock on failed logins must not let anyone who knows an address lock its owner
// out for good by sending a few wrong passwords every 15 minutes: a browser that has logged in to
// the account before (it holds the signed device cookie the login set) is not refused by the
// account's lock; its own failures count against it alone.
const password = 'correct horse battery'
type App = Awaited<ReturnType<typeof testApp>>
const login = (app: App, email: string, pw: string, cookie?: string) =>
  call(app, 'POST', '/api/v1/auth/login', { body: { email, password: pw }, headers: cookie ? { cookie } : {} })

// The device cookie the answer set, as `name=value`.
function deviceCookie(r: Response): string {
  const found = r.headers.getSetCookie().find((c) => /^(__Host-)?votelist_device=/.test(c))
  if (!found) throw new Error('no device cookie')
  return found.split(';')[0]
}

const setup = async (input = {}) => {
  const app = await testApp(testRuntime({ accounts: { failed_logins_per_account: 3, login_attempts_per_minute: 1000 }, ...input }))
  const r = await call(app, 'POST', '/api/v1/auth/register', { body: { email: 'owner@example.com', password } })
  expect(r.status).toBe(201)
  return { app, device: deviceCookie(r) }
}

test('an attacker\'s wrong passwords lock the account for others, not for the browser its owner logged in with', async () => {
  const { app, device } = await setup()
  for (let i = 0; i < 3; i++) expect((await login(app, 'owner@example.com', 'wrong password')).status).toBe(401)
  expect((await login(app, 'owner@example.com', password)).status).toBe(429)
  const owner = await login(app, 'owner@example.com', password, device)
  expect(owner.status).toBe(200)
  // The cookie is HttpOnly, SameSite=Lax and lasts a year.
  const set = owner.headers.getSetCookie().find((c) => c.startsWith('votelist_device='))!
  expect(set).toContain('HttpOnly')
  expect(set).toContain('SameSite=Lax')
  expect(set).toContain('Max-Age=31536000')
})

test('failures from a known browser count against that browser: it is locked in turn, the account is not', async () => {
  const { app, device } = await setup()
  for (let i = 0; i < 3; i++) expect((await login(app, 'owner@example.com', 'wrong password', device)).status).toBe(401)
  expect((await login(app, 'owner@example.com', password, device)).status).toBe(429)
  expect((await login(app, 'owner@example.com', password)).status).toBe(200)
})

test('a device cookie of another account, or a session cookie in its place, does not escape the account\'s lock', async () => {
  const { app } = await setup()
  const other = await call(app, 'POST', '/api/v1/auth/register', { body: { email: 'attacker@example.com', password } })
  const attackerDevice = deviceCookie(other)
  const session = other.headers.getSetCookie()[0].split(';')[0].replace(/^votelist_session=/, 'votelist_device=')
  for (let i = 0; i < 3; i++) expect((await login(app, 'owner@example.com', 'wrong password', attackerDevice)).status).toBe(401)
  expect((await login(app, 'owner@example.com', 'wrong password', attackerDevice)).status).toBe(429)
  expect((await login(app, 'owner@example.com', password, session)).status).toBe(429)
})

test('behind https the device cookie is __Host- prefixed and Secure', async () => {
  const { app, device } = await setup({ site: { base_url: 'https://vote.example.org' } })
  expect(device).toStartWith('__Host-votelist_device=')
})

test('an account deleted and made again with the same address: the old account\'s browsers do not escape the new one\'s lock', async () => {
  const { app } = await setup() // owner@example.com is the administrator
  const admin = { cookie: (await login(app, 'owner@example.com', password)).headers.getSetCookie()[0].split(';')[0] }
  const old = await call(app, 'POST', '/api/v1/auth/register', { body: { email: 'gone@example.com', password } })
  const oldDevice = deviceCookie(old)
  const { user } = (await old.json()) as { user: { id: string } }
  expect((await call(app, 'DELETE', `/api/v1/admin/users/${user.id}`, { headers: admin })).status).toBe(200)
  expect((await call(app, 'POST', '/api/v1/auth/register', { body: { email: 'gone@example.com', password: 'someone else entirely' } })).status).toBe(201)
  for (let i = 0; i < 3; i++) expect((await login(app, 'gone@example.com', 'wrong password', oldDevice)).status).toBe(401)
  expect((await login(app, 'gone@example.com', 'someone else entirely')).status).toBe(429)
})

test('a browser that logged in to two accounts stays known to both: the second login does not take the first one\'s exemption away', async () => {
  const { app, device } = await setup() // the administrator's browser, logged in to owner@example.com
  await call(app, 'POST', '/api/v1/auth/register', { body: { email: 'shop@example.com', password } })
  // The same browser logs in to its second account, then back: its cookie is known to both.
  const both = deviceCookie(await login(app, 'shop@example.com', password, device))
  for (let i = 0; i < 3; i++) expect((await login(app, 'owner@example.com', 'wrong password')).status).toBe(401)
  for (let i = 0; i < 3; i++) expect((await login(app, 'shop@example.com', 'wrong password')).status).toBe(401)
  expect((await login(app, 'owner@example.com', password, both)).status).toBe(200)
  expect((await login(app, 'shop@example.com', password, both)).status).toBe(200)
})

test('the cookie stays under the 4096 bytes a browser keeps, however long the addresses it remembers', async () => {
  const { app } = await setup()
  let cookie = ''
  for (const kana of ['あ', 'い', 'う', 'え', 'お']) {
    // 248 characters, 744 bytes in UTF-8.
    const email = `${kana.repeat(64)}@${kana.repeat(180)}.jp`
    cookie = deviceCookie(await call(app, 'POST', '/api/v1/auth/register', { body: { email, password }, headers: cookie ? { cookie } : {} }))
    expect(cookie.length).toBeLessThan(3900)
  }
  // Known to the latest account still.
  const latest = `${'お'.repeat(64)}@${'お'.repeat(180)}.jp`
  for (let i = 0; i < 3; i++) expect((await login(app, latest, 'wrong password')).status).toBe(401)
  expect((await login(app, latest, password, cookie)).status).toBe(200)
})
