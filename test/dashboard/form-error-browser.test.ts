import { describe, expect, test } from 'bun:test'
import { ownerSiteForFile } from './owner-site.ts'
import { inDashboard } from './page-checks.ts'

// An error no field owns (a wrong password, a rate limit, the network) is shown on top of its
// form, and the focus goes to it: the button pressed is disabled while the form is sent, which
// takes the focus away from it, and a keyboard or screen-reader user must not be left at the top
// of the page with nothing focused.

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
})
