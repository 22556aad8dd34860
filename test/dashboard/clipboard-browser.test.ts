import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromium, type Browser } from 'playwright-core'
import type { App } from '../../src/app.ts'
import { freePort } from '../deliveries/setup.ts'
import { cleanupTemp, seedServer, testApp, testRuntime, type TestRuntime } from '../helpers.ts'
import { recordPageProblems } from './page-checks.ts'

// The dashboard where the browser has no clipboard API (a site on plain http at a LAN address):
// each Copy button selects its text instead, for Ctrl+C.

let rt: TestRuntime
let app: App
let base = ''
let browser: Browser
let slug = ''
let cookie = ''

beforeAll(async () => {
  const port = freePort()
  base = `http://127.0.0.1:${port}`
  rt = testRuntime({ site: { base_url: base }, network: { allow_private_targets: true } }, Date.now())
  slug = (await seedServer(rt, { name: 'Hooked Realm' })).server.slug
  app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port })
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery' }),
  })
  cookie = login.headers.get('set-cookie')!.split(';')[0]
  const hook = await fetch(`${base}/api/v1/me/servers/${slug}/webhook`, {
    method: 'PUT', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }),
  })
  expect(hook.status).toBe(200)
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  cleanupTemp()
})

describe('the dashboard without the clipboard API', () => {
  test('Copy selects the webhook secret itself, whether it was hidden or already revealed', async () => {
    const context = await browser.newContext()
    // As on plain http at a LAN address: no navigator.clipboard.
    await context.addInitScript(() => { Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }) })
    const [name, ...value] = cookie.split('=')
    await context.addCookies([{ name, value: value.join('='), url: base }])
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    const selected = () => page.evaluate(() => String(getSelection()))
    try {
      await page.goto(`${base}/dashboard/servers/${slug}/api`)
      const secretRow = page.locator('#webhook .secret-row')
      const secret = (await (await fetch(`${base}/api/v1/me/servers/${slug}`, { headers: { cookie } })).json() as { server: { webhook: { secret: string } } }).server.webhook.secret
      await secretRow.getByRole('button', { name: 'Copy' }).click()
      expect(await selected()).toBe(secret)
      // Pressed again, the secret (now shown) stays shown and selected.
      await secretRow.getByRole('button', { name: 'Copy' }).click()
      expect(await secretRow.locator('.secret-value').textContent()).toBe(secret)
      expect(await selected()).toBe(secret)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
