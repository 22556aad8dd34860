import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { until } from '../until.ts'
import { ownerSiteForFile } from './owner-site.ts'
import { inDashboard } from './page-checks.ts'

// Where the focus goes after a form is sent or a button acts. The button pressed is disabled
// while the request runs, which takes the focus away from it, and the page or its section may be
// drawn again: a keyboard or screen-reader user must not be left at the top of the page with
// nothing focused. An error no field owns (a wrong password, a rate limit, the network) takes the
// focus on top of its form; a refused button keeps it, its error beside it; a section drawn again
// after a save gives it to its heading.

// Private targets allowed: the webhook saved points at this machine, and nothing is ever sent to it.
const site = ownerSiteForFile({ network: { allow_private_targets: true } }, { name: 'Focus Realm' })

describe('the focus after an action', () => {
  test('a wrong password sent with Enter: the error on top of the form has the focus, then Tab reaches the form again', async () => {
    await inDashboard(site.browser, site.base, null, async (page) => {
      await page.goto(`${site.base}/dashboard/login`)
      const form = page.locator('form.auth-form')
      await form.getByLabel('E-mail address').fill('owner@example.com')
      await form.getByLabel('Password').fill('not the password')
      await form.getByLabel('Password').press('Enter')
      const error = form.locator('.form-error')
      await error.getByText(/^Wrong e-mail address or password/).waitFor()
      expect(await error.evaluate((el) => el === document.activeElement)).toBe(true)
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email')
    })
  })
  // owner@example.com is the site's first account, so its only administrator.
  test('a refused action (the last administrator removing their own right): the button pressed keeps the focus', async () => {
    await inDashboard(site.browser, site.base, site.cookie, async (page) => {
      await page.goto(`${site.base}/dashboard/admin/users`)
      const button = page.getByRole('button', { name: 'Remove the administrator right of owner@example.com' })
      await button.focus()
      await page.keyboard.press('Enter')
      await page.locator('.action-error').getByText(/is the only administrator who can log in/).waitFor()
      expect(await button.evaluate((el) => el === document.activeElement && !(el as HTMLButtonElement).disabled)).toBe(true)
    })
  })
  const focused = (page: Page) => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent?.trim().slice(0, 40)}`)

  test('Test refused (nothing configured yet): the button keeps the focus', async () => {
    await inDashboard(site.browser, site.base, site.cookie, async (page) => {
      await page.goto(`${site.base}/dashboard/servers/${site.slug}/deliveries`)
      const button = page.getByRole('button', { name: 'Send a test vote' })
      await button.focus()
      await page.keyboard.press('Enter')
      await page.locator('.test-results').getByText(/^Nothing to test/).waitFor()
      expect(await focused(page)).toBe('BUTTON Send a test vote')
    })
  })

  test('the listing saved with Enter: the page is drawn again, the focus on the Listing heading', async () => {
    await inDashboard(site.browser, site.base, site.cookie, async (page) => {
      await page.goto(`${site.base}/dashboard/servers/${site.slug}`)
      const listing = page.locator('section.card', { has: page.getByRole('heading', { name: 'Listing', exact: true }) })
      await listing.getByLabel('Version').fill('1.21')
      await listing.getByLabel('Version').press('Enter')
      // The field typed in is replaced when the page is drawn again.
      const typedIn = await listing.getByLabel('Version').elementHandle()
      await until(async () => typedIn!.evaluate((el) => !el.isConnected), 'the page drawn again')
      expect(await focused(page)).toBe('H2 Listing')
    })
  })

  test('the webhook saved with Enter: its section is drawn again, the focus on its heading', async () => {
    await inDashboard(site.browser, site.base, site.cookie, async (page) => {
      await page.goto(`${site.base}/dashboard/servers/${site.slug}/api`)
      const url = page.getByLabel('Webhook URL', { exact: true })
      await url.fill('https://127.0.0.1:9/votes')
      await url.press('Enter')
      await page.locator('#webhook').getByText('Signing secret').waitFor()
      expect(await focused(page)).toBe('H2 Webhook')
    })
  })

})
