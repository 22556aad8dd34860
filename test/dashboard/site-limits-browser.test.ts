import { describe, expect, test } from 'bun:test'
import { ownerSiteForFile } from './owner-site.ts'
import { inDashboard } from './page-checks.ts'

// What the dashboard tells an owner about the site's limits is the site's configuration, not the
// defaults: an administrator may lower the verification API's rate (a plugin written to the figure
// on screen must not be refused) or shorten the retry schedule (an owner must not count on retries
// that never come).

const site = ownerSiteForFile({ limits: { keyed_per_minute: 120 }, deliveries: { retry_delays: ['1m', '2m'] } }, { name: 'Lean Realm' })

describe('the dashboard states the site\'s own limits', () => {
  test('the Verification API section gives the configured requests a minute per key', async () => {
    await inDashboard(site.browser, site.base, site.cookie, async (page) => {
      await page.goto(`${site.base}/dashboard/servers/${site.slug}/api`)
      const keys = page.locator('#api-keys')
      await keys.getByRole('heading', { name: 'Verification API' }).waitFor()
      expect(await keys.locator('h2 + p').textContent()).toBe('Your plugin or website asks the site whether a player voted, then claims the vote to reward it once. No port to open on your side. A key allows 120 requests a minute.')
    })
  }, 60_000)
  test('the Votifier section and the Deliveries tab speak of the configured retries, not the default 9 hours', async () => {
    await inDashboard(site.browser, site.base, site.cookie, async (page) => {
      await page.goto(`${site.base}/dashboard/servers/${site.slug}/api`)
      const votifier = page.locator('#votifier')
      await votifier.getByRole('heading', { name: 'Votifier' }).waitFor()
      expect(await votifier.locator('h2 + p').textContent()).toBe('Every vote is pushed to your server at once (NuVotifier and compatible listeners), with the service name the site signs as. A failed push is retried on the site\'s schedule: the Deliveries tab shows every attempt.')
      await page.goto(`${site.base}/dashboard/servers/${site.slug}/deliveries`)
      const lead = page.locator('#attempts-title + p')
      await lead.waitFor()
      expect(await lead.textContent()).toBe('One row per attempt to push a vote to your Votifier listener, webhook or Discord. A failed attempt is retried on the site\'s schedule, 3 attempts in all; after the last one the delivery gives up, and Redeliver sends it again.')
    })
  }, 60_000)
})
