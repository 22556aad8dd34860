import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromium, type Browser } from 'playwright-core'
import type { App } from '../../src/app.ts'
import { freePort } from '../deliveries/setup.ts'
import { cleanupTemp, seedServer, testApp, testRuntime, type TestRuntime } from '../helpers.ts'
import { recordPageProblems } from './page-checks.ts'

// The dashboard on a 360 px phone with what owners really type: a long host name (at most 253
// characters, and one word as far as line breaking goes) must wrap, never be cut off nor push the
// page sideways.

const HOST = 'mc.skyblockadventuresnetworkofficial.example.com'
let rt: TestRuntime
let app: App
let base = ''
let browser: Browser
let slug = ''
let cookie = ''

beforeAll(async () => {
  const port = freePort()
  base = `http://127.0.0.1:${port}`
  rt = testRuntime({ site: { base_url: base } }, Date.now())
  slug = (await seedServer(rt, { name: 'Long Host', host: HOST })).server.slug
  app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port })
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery' }),
  })
  cookie = login.headers.get('set-cookie')!.split(';')[0]
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

describe('the dashboard on a 360 px phone', () => {
  test('a long host name wraps in My servers and in the Ownership steps: all of it shows, nothing scrolls sideways', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
    const [name, ...value] = cookie.split('=')
    await context.addCookies([{ name, value: value.join('='), url: base }])
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    try {
      await page.goto(`${base}/dashboard`)
      const address = page.locator('tbody tr').filter({ hasText: 'Long Host' }).locator('td.cell-main .muted', { hasText: HOST })
      await address.waitFor()
      // Cut by the card (overflow: hidden) when it does not wrap: wider inside than its box.
      expect(await address.evaluate((e) => e.scrollWidth - e.clientWidth)).toBe(0)
      expect(await sideways()).toBe(0)

      await page.goto(`${base}/dashboard/servers/${slug}`)
      await page.locator('#verification li', { hasText: HOST }).waitFor()
      expect(await sideways()).toBe(0)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
