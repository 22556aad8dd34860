import { describe, expect, test } from 'bun:test'
import { ownerSiteForFile } from './owner-site.ts'
import { recordPageProblems, signIn } from './page-checks.ts'

// The dashboard where the browser has no clipboard API (a site on plain http at a LAN address):
// each Copy button selects its text instead, for Ctrl+C.

const site = ownerSiteForFile({ network: { allow_private_targets: true } }, { name: 'Hooked Realm' }, async ({ base, slug, cookie }) => {
  const hook = await fetch(`${base}/api/v1/me/servers/${slug}/webhook`, {
    method: 'PUT', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }),
  })
  expect(hook.status).toBe(200)
})

describe('the dashboard without the clipboard API', () => {
  test('Copy selects the webhook secret itself, whether it was hidden or already revealed', async () => {
    const { base, slug, cookie, browser } = site
    const context = await browser.newContext()
    // As on plain http at a LAN address: no navigator.clipboard.
    await context.addInitScript(() => { Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }) })
    await signIn(context, base, cookie)
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    const selected = () => page.evaluate(() => String(getSelection()))
    try {
      await page.goto(`${base}/dashboard/servers/${slug}/api`)
      const secretRow = page.locator('#webhook .secret-row')
      const secret = (await (await fetch(`${base}/api/v1/me/servers/${slug}`, { headers: { cookie } })).json() as { server: { webhook: { secret: string } } }).server.webhook.secret
      await secretRow.getByRole('button', { name: 'Copy' }).click()
      expect(await selected()).toBe(secret)
      // Pressed again, the secret (now shown) stays shown and selected.
      await secretRow.getByRole('button', { name: 'Copy' }).click()
      expect(await secretRow.locator('.secret-value').textContent()).toBe(secret)
      expect(await selected()).toBe(secret)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
