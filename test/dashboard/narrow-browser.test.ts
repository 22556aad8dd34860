import { describe, expect, test } from 'bun:test'
import { ownerSiteForFile } from './owner-site.ts'
import { recordPageProblems, signIn } from './page-checks.ts'

// The dashboard on a 360 px phone with what owners really type: a long host name (at most 253
// characters, and one word as far as line breaking goes) must wrap, never be cut off nor push the
// page sideways.

const HOST = 'mc.skyblockadventuresnetworkofficial.example.com'
const site = ownerSiteForFile({}, { name: 'Long Host', host: HOST })

describe('the dashboard on a 360 px phone', () => {
  test('a long host name wraps in My servers and in the Ownership steps: all of it shows, nothing scrolls sideways', async () => {
    const { base, slug, cookie, browser } = site
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
    await signIn(context, base, cookie)
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    try {
      await page.goto(`${base}/dashboard`)
      const address = page.locator('tbody tr').filter({ hasText: 'Long Host' }).locator('td.cell-main .muted', { hasText: HOST })
      await address.waitFor()
      // Cut by the card (overflow: hidden) when it does not wrap: wider inside than its box.
      expect(await address.evaluate((e) => e.scrollWidth - e.clientWidth)).toBe(0)
      expect(await sideways()).toBe(0)

      await page.goto(`${base}/dashboard/servers/${slug}`)
      await page.locator('#verification li', { hasText: HOST }).waitFor()
      expect(await sideways()).toBe(0)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
