import { describe, expect, test } from 'bun:test'
import { ownerSiteForFile } from './owner-site.ts'
import { inDashboard } from './page-checks.ts'

// An error no field owns (a wrong password, a rate limit, the network) is shown on top of its
// form, and the focus goes to it; a button that acts at once (revoke, redeliver, remove admin)
// and is refused keeps the focus, its error beside it. The button pressed is disabled while the
// request runs, which takes the focus away from it: a keyboard or screen-reader user must not be
// left at the top of the page with nothing focused.

const site = ownerSiteForFile({}, { name: 'Focus Realm' })

describe('an error on top of a form', () => {
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
})
