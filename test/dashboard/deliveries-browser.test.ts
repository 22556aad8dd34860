import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { refusedPort } from '../stats/peers.ts'
import { until } from '../until.ts'
import { ownerSiteForFile } from './owner-site.ts'
import { recordPageProblems, signIn } from './page-checks.ts'

// The Deliveries tab with the keyboard, in Debian's Chromium against the site in this process:
// its list refreshes itself every 3 s, and paging through more than one page must keep the focus
// where the keyboard left it.

const site = ownerSiteForFile({ network: { allow_private_targets: true }, limits: { test_votes_per_minute: 100 } }, { name: 'Paged Realm' }, async ({ base, slug, cookie }) => {
  const owner = { cookie, 'content-type': 'application/json' }
  // A webhook nobody listens on: each Test is one failed attempt, 26 of them two pages.
  const hook = await fetch(`${base}/api/v1/me/servers/${slug}/webhook`, { method: 'PUT', headers: owner, body: JSON.stringify({ url: `http://127.0.0.1:${await refusedPort()}/hook` }) })
  expect(hook.status).toBe(200)
  for (let i = 0; i < 26; i++) expect((await fetch(`${base}/api/v1/me/servers/${slug}/test`, { method: 'POST', headers: owner, body: '{}' })).status).toBe(200)
})

const focusedText = (page: Page) => page.evaluate(() => (document.activeElement?.textContent ?? '').trim())

describe('the Deliveries tab with the keyboard', () => {
  test('Older and Newer keep the focus through the list\'s own refresh and through the page they open', async () => {
    const { base, slug, cookie, browser } = site
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await signIn(context, base, cookie)
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
