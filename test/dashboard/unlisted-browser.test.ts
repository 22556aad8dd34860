import { describe, expect, test } from 'bun:test'
import { ownerSiteForFile } from './owner-site.ts'
import { recordPageProblems, signIn } from './page-checks.ts'

// A server that is off the public site for another reason than being hidden: on a site that
// lists only verified servers, a new listing is unverified, and its public pages and badge
// answer 404 until it is verified.

const site = ownerSiteForFile({ listing: { require_verification: true } }, { name: 'Unproven Realm' })

describe('a server off the public site, in the dashboard', () => {
  test('an unverified server on a verified-only site: no broken badge images, a notice says why there is no badge', async () => {
    const { base, slug, cookie, browser } = site
    expect((await fetch(`${base}/api/v1/servers/${slug}/badge.svg`)).status).toBe(404)
    const context = await browser.newContext()
    await signIn(context, base, cookie)
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
    const { base, slug, cookie, browser } = site
    expect((await fetch(`${base}/serveur/${slug}`)).status).toBe(404)
    const context = await browser.newContext()
    await signIn(context, base, cookie)
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
