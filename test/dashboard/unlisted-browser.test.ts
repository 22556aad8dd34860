import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromium, type Browser } from 'playwright-core'
import type { App } from '../../src/app.ts'
import { freePort } from '../deliveries/setup.ts'
import { cleanupTemp, seedServer, testApp, testRuntime, type TestRuntime } from '../helpers.ts'
import { recordPageProblems } from './page-checks.ts'

// A server that is off the public site for another reason than being hidden: on a site that
// lists only verified servers, a new listing is unverified, and its public pages and badge
// answer 404 until it is verified.

let rt: TestRuntime
let app: App
let base = ''
let browser: Browser
let slug = ''
let cookie = ''

beforeAll(async () => {
  const port = freePort()
  base = `http://127.0.0.1:${port}`
  rt = testRuntime({ site: { base_url: base }, listing: { require_verification: true } }, Date.now())
  slug = (await seedServer(rt, { name: 'Unproven Realm' })).server.slug
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

describe('a server off the public site, in the dashboard', () => {
  test('an unverified server on a verified-only site: no broken badge images, a notice says why there is no badge', async () => {
    expect((await fetch(`${base}/api/v1/servers/${slug}/badge.svg`)).status).toBe(404)
    const context = await browser.newContext()
    const [name, ...value] = cookie.split('=')
    await context.addCookies([{ name, value: value.join('='), url: base }])
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    try {
      await page.goto(`${base}/dashboard/servers/${slug}/api`)
      const badge = page.locator('#badge')
      await badge.getByRole('button', { name: 'Copy the snippet' }).waitFor()
      expect(await badge.locator('img').count()).toBe(0)
      expect(await badge.locator('.notice').textContent()).toBe('Servers off the public site have no public badge: it answers "not found" until the server is on the public site (its Overview says why it is not).')
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  test('its Overview links to no page that answers "not found", and says why the server is not listed', async () => {
    expect((await fetch(`${base}/serveur/${slug}`)).status).toBe(404)
    const context = await browser.newContext()
    const [name, ...value] = cookie.split('=')
    await context.addCookies([{ name, value: value.join('='), url: base }])
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    try {
      await page.goto(`${base}/dashboard/servers/${slug}`)
      const publicPages = page.locator('section.card', { has: page.getByRole('heading', { name: 'Public pages' }) })
      await publicPages.locator('.notice').waitFor()
      expect(await publicPages.locator('a').count()).toBe(0)
      expect(await publicPages.locator('.notice').textContent()).toStartWith('Not on the public site yet: this site lists only servers whose owner proved they run them.')
      expect(await publicPages.locator('dt').allTextContents()).toEqual(['Address', 'Total votes'])
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
