import { describe, expect, test } from 'bun:test'
import { ownerSiteForFile } from './owner-site.ts'
import { inDashboard } from './page-checks.ts'

// The dashboard of a French site, where it shows what the site wrote in English (a delivery's
// own record of its failure): that text says lang="en", so that a screen reader reads it as
// English and not with French rules, as the Deliveries tab and the admin's Site page already do;
// a figure of the site's configuration is written the French way.

// Private targets allowed: the webhook points at a port of this machine where nothing listens.
// A key's limit other than the default 600.
const site = ownerSiteForFile({ site: { language: 'fr' }, network: { allow_private_targets: true }, limits: { keyed_per_minute: 1200 } }, { name: 'Royaume' })

describe('a French dashboard', () => {
  test('Test on a webhook nobody answers: the failure in French, its English detail marked lang="en"', async () => {
    const put = await fetch(`${site.base}/api/v1/me/servers/${site.slug}/webhook`, {
      method: 'PUT', headers: { cookie: site.cookie, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://127.0.0.1:9/votes' }),
    })
    expect(put.status).toBe(200)
    await inDashboard(site.browser, site.base, site.cookie, async (page) => {
      // The browser asks for English (Accept-Language); the address names French.
      await page.goto(`${site.base}/dashboard/servers/${site.slug}/api?lang=fr`)
      await page.getByRole('button', { name: 'Envoyer un vote de test' }).click()
      const result = page.locator('.test-result[data-channel="webhook"]')
      await result.locator('.test-error').waitFor()
      expect(await page.getAttribute('html', 'lang')).toBe('fr')
      expect(await result.locator('.outcome').textContent()).toBe('Connexion refusée')
      expect(await result.locator('.test-error').evaluate((el) => [el.getAttribute('lang'), el.textContent?.startsWith('connection refused by 127.0.0.1:9')])).toEqual(['en', true])
    })
  })
  test('the API keys section says the site\'s own limit per key (limits.keyed_per_minute), written the French way', async () => {
    await inDashboard(site.browser, site.base, site.cookie, async (page) => {
      await page.goto(`${site.base}/dashboard/servers/${site.slug}/api?lang=fr`)
      const lead = page.locator('#api-keys > p').first()
      await lead.waitFor()
      expect(await lead.textContent()).toEndWith('Une clé permet 1\u202f200 requêtes par minute.')
    })
  })
})
