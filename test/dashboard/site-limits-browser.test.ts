import { describe, expect, test } from 'bun:test'
import { ownerSiteForFile } from './owner-site.ts'
import { recordPageProblems, signIn } from './page-checks.ts'

// What the dashboard tells an owner about the site's limits is the site's configuration, not the
// defaults: an administrator may lower the verification API's rate, and a plugin written to the
// figure on screen must not be refused.

const site = ownerSiteForFile({ limits: { keyed_per_minute: 120 } }, { name: 'Lean Realm' })

describe('the dashboard states the site\'s own limits', () => {
  test('the Verification API section gives the configured requests a minute per key', async () => {
    const { base, slug, cookie, browser } = site
    const context = await browser.newContext()
    await signIn(context, base, cookie)
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    try {
      await page.goto(`${base}/dashboard/servers/${slug}/api`)
      const keys = page.locator('#api-keys')
      await keys.getByRole('heading', { name: 'Verification API' }).waitFor()
      expect(await keys.locator('h2 + p').textContent()).toBe('Your plugin or website asks the site whether a player voted, then claims the vote to reward it once. No port to open on your side. A key allows 120 requests a minute.')
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
