import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromium, type Browser } from 'playwright-core'
import { cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'
import { recordPageProblems } from '../dashboard/page-checks.ts'
import { onFreeDualStackPort } from '../real-server.ts'

// The pages in a real browser (Debian's Chromium through playwright-core): the self-hosted
// captcha widget solving the site's challenge, the dual-stack script fetching both tokens, the
// confirmation after the redirect, and a 360 px wide phone screen.

let browser: Browser
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
})
afterAll(async () => {
  await browser?.close()
  cleanupTemp()
})


describe('in a browser', () => {
  test('a player votes through the captcha widget; the vote records the IPv4 and IPv6 address', async () => {
    const { port, rt, app } = await onFreeDualStackPort(async (port) => {
      const rt = testRuntime({
        site: { base_url: `http://localhost:${port}`, ipv4_url: `http://127.0.0.1:${port}`, ipv6_url: `http://[::1]:${port}` },
        votes: { captcha: 'pow', captcha_difficulty: 50 },
      }, Date.now())
      return { port, rt, app: (await testApp(rt)).listen({ hostname: '::', port }) }
    })
    const base = `http://localhost:${port}`
    const { server } = await seedServer(rt, { name: 'Emerald Valley' })
    const page = await browser.newPage()
    const problems = recordPageProblems(page)
    try {
      const answer = await page.goto(`${base}/serveur/${server.slug}/voter?pseudo=Steve`)
      expect(answer!.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
      expect(await page.inputValue('#pseudo')).toBe('Steve')
      const captcha = page.locator('altcha-widget')
      await captcha.getByText("I'm not a robot").click()
      await captcha.locator('.altcha[data-state="verified"]').waitFor()
      await Promise.all([page.waitForURL(/\/voter\?vote=/), page.click('button[type="submit"]')])
      expect(await page.textContent('.notice-success')).toContain('Thank you, Steve!')
      const vote = rt.db.query('SELECT id FROM vote').get() as { id: string }
      expect(rt.db.query('SELECT ip_key AS k FROM vote_address WHERE vote_id = ? ORDER BY ip_key').all(vote.id))
        .toEqual([{ k: '4:127.0.0.1' }, { k: '6:0000000000000000' }])
      // The page's strict policy let the widget, its stylesheet and its worker run.
      expect(problems).toEqual([])
    } finally {
      await page.close()
      await app.stop()
    }
  }, 60_000)

  test('every page fits a 360 px wide phone screen, and the copy button appears with JavaScript', async () => {
    const rt = testRuntime()
    const { server } = await seedServer(rt, { name: 'A server with a rather long name for a phone', description: 'x'.repeat(500), website: `https://example.com/${'a'.repeat(200)}` })
    rt.store.servers.setVerified(server.id, rt.clock.now()) // with the verified mark by its name
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } })
    const problems = recordPageProblems(page)
    try {
      for (const path of ['/', `/serveur/${server.slug}`, `/serveur/${server.slug}/voter`, '/serveur/nope']) {
        await page.goto(`http://127.0.0.1:${app.server!.port}${path}`)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect({ path, overflow }).toEqual({ path, overflow: 0 })
      }
      await page.goto(`http://127.0.0.1:${app.server!.port}/serveur/${server.slug}`)
      expect(await page.isVisible('button[data-copy="server-address"]')).toBe(true)
      expect(problems).toEqual([])
    } finally {
      await page.close()
      await app.stop()
    }
  }, 60_000)
})
