import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { createUser } from '../../src/accounts/service.ts'
import { endSession, SESSION_TTL_MS, sessionCookieName, startSession } from '../../src/accounts/session.ts'
import { until } from '../until.ts'
import { ownerSiteForFile } from './owner-site.ts'
import { checkView, inDashboard } from './page-checks.ts'

// A session that ends while an owner works on a page (it expired, or was ended elsewhere): the
// page stays, with what was typed in it, under a dialog to log in again, and the change goes
// through once sent again. (A session found ended while a page loads leads to the log-in page:
// admin-browser.test.ts.)

const PASSWORD = 'correct horse battery'
const site = ownerSiteForFile({}, { name: 'Session Realm' })

// A session of its own for each test, so that ending it leaves the others alone.
async function session(email = 'owner@example.com') {
  const user = await site.rt.store.users.byEmail(email)
  const { token } = await startSession(site.rt, user!.id)
  return { cookie: `${sessionCookieName(site.rt.siteUrl)}=${token}`, end: () => endSession(site.rt, token) }
}

// The server's page with a new description typed into its listing form, not saved yet.
async function typeDescription(page: Page, text: string) {
  await page.goto(`${site.base}/dashboard/servers/${site.slug}`)
  const listing = page.locator('section.card', { has: page.getByRole('heading', { name: 'Listing', exact: true }) })
  await listing.getByLabel('Description').fill(text)
  return listing
}

// The description typed, then the session ended (`end`), then Save pressed: the dialog it opens
// over the page.
async function saveAfterTheSessionEnded(page: Page, text: string, end: () => unknown) {
  const listing = await typeDescription(page, text)
  await end()
  await listing.getByRole('button', { name: 'Save changes' }).click()
  const dialog = page.getByRole('dialog', { name: 'Your session has ended' })
  await dialog.waitFor()
  return { listing, dialog }
}

const storedDescription = async () => ((await (await fetch(`${site.base}/api/v1/servers/${site.slug}`)).json()) as { server: { description: string } }).server.description

describe('the session ends while a page is open', () => {
  test('it expires while the owner edits: a dialog over the page, the typed text kept, saved once logged in again', async () => {
    const { cookie } = await session()
    await inDashboard(site.browser, site.base, cookie, async (page) => {
      const typed = 'Typed before the session expired.'
      const { listing, dialog } = await saveAfterTheSessionEnded(page, typed, () => site.rt.clock.advance(SESSION_TTL_MS + 60_000))
      expect(await dialog.getByLabel('E-mail address').inputValue()).toBe('owner@example.com')
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password')
      expect(await listing.getByLabel('Description').inputValue()).toBe(typed)
      expect(await checkView(page, 'session-dialog')).toEqual({})

      // A wrong password is refused in the dialog, which stays.
      await dialog.getByLabel('Password').fill('not the password')
      await dialog.getByRole('button', { name: 'Log in' }).click()
      await dialog.locator('.form-error').getByText(/^Wrong e-mail address or password/).waitFor()
      await dialog.getByLabel('Password').fill(PASSWORD)
      await dialog.getByRole('button', { name: 'Log in' }).click()
      await dialog.waitFor({ state: 'detached' })
      await page.locator('#announcer').getByText('You are logged in again: send your change again.').waitFor()
      expect(page.url()).toBe(`${site.base}/dashboard/servers/${site.slug}`)
      expect(await listing.getByLabel('Description').inputValue()).toBe(typed)
      expect(await storedDescription()).not.toBe(typed)

      await listing.getByRole('button', { name: 'Save changes' }).click()
      await until(async () => (await storedDescription()) === typed, 'the description typed before the expiry to be saved')
    })
  }, 60_000)

  test('closing the dialog leads to the log-in page, which leads back to the page', async () => {
    const { cookie, end } = await session()
    await inDashboard(site.browser, site.base, cookie, async (page) => {
      const { dialog } = await saveAfterTheSessionEnded(page, 'Left behind.', end)
      await page.keyboard.press('Escape')
      await page.waitForURL(/\/dashboard\/login\?next=/)
      expect(await dialog.count()).toBe(0)
      const form = page.locator('form.auth-form')
      await form.getByLabel('E-mail address').fill('owner@example.com')
      await form.getByLabel('Password').fill(PASSWORD)
      await form.getByRole('button', { name: 'Log in' }).click()
      await page.waitForURL(`${site.base}/dashboard/servers/${site.slug}`)
      await page.getByRole('heading', { name: 'Listing', exact: true }).waitFor()
    })
  }, 60_000)

  test('another account logging in through the dialog gets the page as that account sees it', async () => {
    await createUser(site.rt, { email: 'other@example.com', password: PASSWORD })
    const { cookie, end } = await session()
    await inDashboard(site.browser, site.base, cookie, async (page) => {
      const { dialog } = await saveAfterTheSessionEnded(page, 'Not for the other account.', end)
      await dialog.getByLabel('E-mail address').fill('other@example.com')
      await dialog.getByLabel('Password').fill(PASSWORD)
      await dialog.getByRole('button', { name: 'Log in' }).click()
      await dialog.waitFor({ state: 'detached' })
      // Drawn again for that account, which does not own the server: nothing of the owner's page.
      await page.locator('#view .notice-error').getByText(/^This page could not be loaded: /).waitFor()
      expect(await page.getByRole('heading', { name: 'Listing', exact: true }).count()).toBe(0)
      expect(await page.getByRole('navigation', { name: 'Dashboard' }).getByText('other@example.com').count()).toBe(1)
    })
    expect(await storedDescription()).not.toBe('Not for the other account.')
  }, 60_000)
})
