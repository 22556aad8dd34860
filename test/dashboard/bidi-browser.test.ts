import { describe, expect, test } from 'bun:test'
import type { Locator, Page } from 'playwright-core'
import { markAfter } from '../bidi-checks.ts'
import { seedServer } from '../helpers.ts'
import { ownerSiteForFile } from './owner-site.ts'
import { recordPageProblems, signIn } from './page-checks.ts'

// Names the dashboard shows are its users' text: whatever direction marks a server's name or an
// e-mail address holds (a right-to-left override it never ends), it is set apart as on the
// public pages (isolateText, web/assets/translate.js), so that the dashboard's own words around
// it, in a list, a title or a confirmation, keep their order.

const NAME = '\u202Eevil'
const EMAIL = '\u202Eevil@example.com'
const isolated = (text: string) => `\u2068${text}\u2069`

// Sign-up refuses such an address now (invisible and direction characters, e614ca6); an account
// made before that keeps the one it has, written here as it was kept.
const site = ownerSiteForFile({}, { name: NAME }, async ({ rt, slug }) => {
  rt.db.run('UPDATE server SET verified_at = ? WHERE slug = ?', [rt.clock.now(), slug])
  const { owner } = await seedServer(rt, { name: 'Other Realm', host: 'other.example.com' }, 'evil@example.com')
  rt.db.run('UPDATE user SET email = ?, email_key = ? WHERE id = ?', [EMAIL, EMAIL.toLowerCase(), owner.id])
})

// The text of the confirmation `button` asks for; the dialog is dismissed (nothing is deleted).
function confirmationOf(page: Page, button: Locator): Promise<string> {
  const message = new Promise<string>((resolve) => page.once('dialog', (d) => {
    resolve(d.message())
    void d.dismiss()
  }))
  return button.click().then(() => message)
}

async function inDashboard(steps: (page: Page) => Promise<void>) {
  const { base, cookie, browser } = site
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  await signIn(context, base, cookie)
  const page = await context.newPage()
  const problems = recordPageProblems(page)
  try {
    await steps(page)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
}

describe('names holding direction marks, in the dashboard', () => {
  test('My servers: the Verified mark stays after the name', () => inDashboard(async (page) => {
    await page.goto(`${site.base}/dashboard`)
    const name = page.locator('tbody tr td.cell-main')
    await name.locator('.verified').waitFor()
    expect(await markAfter(name, 'evil')).toBe(true)
  }), 60_000)

  test('the server\'s page: its title and the delete confirmation keep their words in order', () => inDashboard(async (page) => {
    await page.goto(`${site.base}/dashboard/servers/${site.slug}`)
    const danger = page.locator('section.danger-zone')
    await danger.locator('button', { hasText: 'Delete the server' }).waitFor()
    expect(await page.title()).toBe(`Overview · ${isolated(NAME)} · My Server List`)
    expect(await confirmationOf(page, danger.locator('button', { hasText: 'Delete the server' })))
      .toBe(`Delete ${isolated(NAME)} with all its votes, keys and deliveries? This cannot be undone.`)
  }), 60_000)

  test('All servers: the Verified mark stays after the name; the delete confirmation names server and owner apart', () => inDashboard(async (page) => {
    await page.goto(`${site.base}/dashboard/admin/servers`)
    const row = page.locator(`tbody tr[data-slug="${site.slug}"]`)
    await row.locator('.verified').waitFor()
    expect(await markAfter(row.locator('td.cell-main'), 'evil')).toBe(true)
    const other = page.locator('tbody tr[data-slug="other-realm"]')
    expect(await confirmationOf(page, other.locator('button', { hasText: 'Delete' })))
      .toBe(`Delete Other Realm (owner ${isolated(EMAIL)}) with all its votes, keys and deliveries? This cannot be undone.`)
  }), 60_000)

  test('Users: the delete confirmation of an account keeps its words in order', () => inDashboard(async (page) => {
    await page.goto(`${site.base}/dashboard/admin/users`)
    const row = page.locator('tbody tr', { hasText: 'evil@example.com' })
    expect(await confirmationOf(page, row.locator('button', { hasText: 'Delete' })))
      .toBe(`Delete the account ${isolated(EMAIL)} with its 1 server and all their votes, keys and deliveries? This cannot be undone.`)
  }), 60_000)
})
