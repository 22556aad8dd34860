import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromium, type Browser } from 'playwright-core'
import { createServer } from '../../src/servers/service.ts'
import { checkView, inDashboard, signIn } from '../dashboard/page-checks.ts'
import { freePort } from '../deliveries/setup.ts'
import { cleanupTemp, testApp, testLookup, testRuntime } from '../helpers.ts'
import { ownerSession } from '../owner/session.ts'
import { javaMotdServer, type MotdServer } from './minecraft-servers.ts'

// The dashboard's side of proven ownership in Debian's Chromium: why a server is not listed, the
// token and its instructions, a refused check quoting the MOTD, then Verify; and the admin's view
// of two accounts listing one address.

let browser: Browser
let game: MotdServer
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
  game = await javaMotdServer('A Minecraft Server')

}, 60_000)
afterAll(async () => {
  await browser?.close()
  await game?.close()
  cleanupTemp()
})

describe('ownership in the dashboard', () => {
  test('an owner sees why the server is not listed, verifies it, and the admin sees who else claims the address', async () => {
    const port = freePort()
    const base = `http://127.0.0.1:${port}`
    const rt = testRuntime({ site: { base_url: base }, network: { allow_private_targets: true }, listing: { require_verification: true } }, Date.now())
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port })
    const admin = await ownerSession(rt, 'admin@example.com', true)
    const alice = await ownerSession(rt, 'alice@example.com')
    const bob = await ownerSession(rt, 'bob@example.com')
    const list = (ownerId: string, name: string) => createServer({ ...rt, lookup: testLookup }, ownerId, { name, host: '127.0.0.1', port: game.port })
    const server = await list(alice.user.id, 'Emerald Valley')
    try {
      await inDashboard(browser, base, alice.headers.cookie, async (page, context) => {
        await page.goto(`${base}/dashboard`)
        const row = page.locator('tr', { hasText: 'Emerald Valley' })
        expect(await row.locator('.unlisted-reason').textContent()).toBe('Not listed until you verify that you run it')

        await page.goto(`${base}/dashboard/servers/${server.slug}`)
        const section = page.locator('#verification')
        await section.waitFor()
        expect(await page.locator('.card', { hasText: 'Public pages' }).locator('.notice').textContent()).toContain('this site lists only servers whose owner proved they run them')
        const token = (await section.locator('.copy-value').textContent())!
        expect(token).toMatch(/^vl-[0-9a-v]{12}$/)
        expect(await section.locator('ol.steps li').first().textContent()).toContain(`"motd=A Minecraft Server ${token}"`)
        expect({ problems: await checkView(page, 'ownership-unverified') }).toEqual({ problems: {} })

        // The token is not in the MOTD yet: the refusal quotes it, in place.
        await section.getByRole('button', { name: 'Verify' }).click()
        expect(await section.locator('.verify-result .notice-error').textContent()).toContain('it reads "A Minecraft Server"')

        game.setMotd(`Emerald Valley ${token}`)
        await section.getByRole('button', { name: 'Verify' }).click()
        await page.locator('#verification', { hasText: 'you proved you run this server' }).waitFor()
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('verification-title')
        expect(await page.locator('.page-header .verified').textContent()).toBe('✓ Verified')
        expect(await page.locator('.card', { hasText: 'Public pages' }).locator('.notice').count()).toBe(0)
        expect({ problems: await checkView(page, 'ownership-verified') }).toEqual({ problems: {} })

        // Bob lists the same address: the admin sees both, and that Bob's listing is off the site.
        await list(bob.user.id, 'Copy of Emerald')
        await context.clearCookies()
        await signIn(context, base, admin.headers.cookie)
        await page.goto(`${base}/dashboard/admin/servers`)
        const copy = page.locator('tr[data-slug="copy-of-emerald"]')
        expect(await copy.locator('.unlisted-reason').textContent()).toBe('Same address as Emerald Valley (alice@example.com, verified)')
        expect(await copy.locator('.pill-hidden').textContent()).toBe('Not listed: address claimed')
        const real = page.locator(`tr[data-slug="${server.slug}"]`)
        expect(await real.locator('.unlisted-reason').textContent()).toBe('Same address as Copy of Emerald (bob@example.com)')
        expect({ problems: await checkView(page, 'ownership-admin') }).toEqual({ problems: {} })
      })
    } finally {
      await app.stop()
    }
  }, 120_000)
})
