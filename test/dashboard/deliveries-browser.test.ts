import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromium, type Browser, type Page } from 'playwright-core'
import type { App } from '../../src/app.ts'
import { freePort } from '../deliveries/setup.ts'
import { cleanupTemp, seedServer, testApp, testRuntime, type TestRuntime } from '../helpers.ts'
import { refusedPort } from '../stats/peers.ts'
import { until } from '../until.ts'
import { recordPageProblems } from './page-checks.ts'

// The Deliveries tab with the keyboard, in Debian's Chromium against the site in this process:
// its list refreshes itself every 3 s, and paging through more than one page must keep the focus
// where the keyboard left it.

let rt: TestRuntime
let app: App
let base = ''
let browser: Browser
let slug = ''
let cookie = ''

beforeAll(async () => {
  const port = freePort()
  base = `http://127.0.0.1:${port}`
  rt = testRuntime({ site: { base_url: base }, network: { allow_private_targets: true }, limits: { test_votes_per_minute: 100 } }, Date.now())
  const { server } = await seedServer(rt, { name: 'Paged Realm' })
  slug = server.slug
  app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port })
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery' }),
  })
  cookie = login.headers.get('set-cookie')!.split(';')[0]
  const owner = { cookie, 'content-type': 'application/json' }
  // A webhook nobody listens on: each Test is one failed attempt, 26 of them two pages.
  const hook = await fetch(`${base}/api/v1/me/servers/${slug}/webhook`, { method: 'PUT', headers: owner, body: JSON.stringify({ url: `http://127.0.0.1:${await refusedPort()}/hook` }) })
  expect(hook.status).toBe(200)
  for (let i = 0; i < 26; i++) expect((await fetch(`${base}/api/v1/me/servers/${slug}/test`, { method: 'POST', headers: owner, body: '{}' })).status).toBe(200)
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

const focusedText = (page: Page) => page.evaluate(() => (document.activeElement?.textContent ?? '').trim())

describe('the Deliveries tab with the keyboard', () => {
  test('Older and Newer keep the focus through the list\'s own refresh and through the page they open', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const [name, ...value] = cookie.split('=')
    await context.addCookies([{ name, value: value.join('='), url: base }])
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    let loads = 0
    page.on('response', (r) => { if (r.url().includes(`/servers/${slug}/deliveries?`)) loads++ })
    try {
      await page.goto(`${base}/dashboard/servers/${slug}/deliveries`)
      const pager = page.locator('.tab-body .pager')
      await pager.getByRole('button', { name: 'Older →' }).focus()
      expect(await focusedText(page)).toBe('Older →')
      // The list draws itself again (every 3 s): the focus stays on Older, so Enter still pages.
      const seen = loads
      await until(() => loads >= seen + 2, 'the list to refresh itself twice')
      expect(await focusedText(page)).toBe('Older →')
      await page.keyboard.press('Enter')
      await pager.getByText('Page 2').waitFor()
      // The last page has no Older: the focus goes to Newer, and Enter goes back.
      await until(async () => (await focusedText(page)) === '← Newer', 'the focus to be on Newer')
      await page.keyboard.press('Enter')
      await pager.getByText('Page 1').waitFor()
      await until(async () => (await focusedText(page)) === 'Older →', 'the focus to be on Older again')
      expect(await page.locator('table.deliveries tbody tr').count()).toBe(25)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
