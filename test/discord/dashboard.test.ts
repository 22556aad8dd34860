import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { chromium, type Browser } from 'playwright-core'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import { recordVote } from '../../src/votes/service.ts'
import { checkView, inDashboard } from '../dashboard/page-checks.ts'
import { deliveryRuntime, freePort } from '../deliveries/setup.ts'
import { cleanupTemp, testApp } from '../helpers.ts'
import { startDiscordReceiver, type DiscordReceiver } from './discord-receiver.ts'

// The Discord section of the dashboard in Debian's Chromium: a refused URL shown under its field,
// the local stand-in for Discord saved, the Test button reaching it, a rate-limited vote in the
// Deliveries tab, and the webhook removed.

let browser: Browser
let discord: DiscordReceiver
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })

}, 60_000)
afterEach(() => discord?.stop())
afterAll(async () => {
  await browser?.close()
  cleanupTemp()
})

describe('Discord in the dashboard', () => {
  test('an owner adds the webhook URL, presses Test, sees the votes in Deliveries and removes it', async () => {
    discord = startDiscordReceiver()
    const port = freePort()
    const base = `http://127.0.0.1:${port}`
    const { rt, owner, server } = await deliveryRuntime('sqlite', { site: { base_url: base } }, undefined, Date.now())
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port })
    const cookie = `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, owner.id)).token}`
    try {
      await inDashboard(browser, base, cookie, async (page) => {
        await page.goto(`${base}/dashboard/servers/${server.slug}/api`)
        const section = page.locator('section#discord')
        const url = section.getByLabel('Discord webhook URL')
        await url.waitFor()

        // A refused URL: the reason under the field, nothing saved.
        await url.fill('ftp://127.0.0.1/api/webhooks/1/x')
        await section.getByRole('button', { name: 'Save the Discord webhook' }).click()
        const fieldError = section.locator('[data-field="url"] .field-error')
        await fieldError.waitFor()
        expect(await fieldError.textContent()).toBe('Url must be a Discord webhook URL, https://discord.com/api/webhooks/<id>/<token>, as the channel\'s Integrations → Webhooks → Copy Webhook URL gives it')
        expect(await url.getAttribute('aria-invalid')).toBe('true')
        expect(await rt.store.channels.discord(server.id)).toBeNull()

        await url.fill(discord.url())
        await section.getByRole('button', { name: 'Save the Discord webhook' }).click()
        await section.getByRole('button', { name: 'Remove the Discord webhook' }).waitFor()
        expect((await rt.store.channels.discord(server.id))?.url).toBe(discord.url())
        expect(await section.getByLabel('Discord webhook URL').inputValue()).toBe(discord.url())
        expect({ problems: await checkView(page, 'discord-saved') }).toEqual({ problems: {} })

        // Test: the stand-in receives the test message, and the panel says Discord got it.
        const panel = page.locator('section.test-panel')
        await panel.getByRole('button', { name: 'Send a test vote' }).click()
        await discord.waitFor(1)
        expect(discord.received[0].json.embeds[0]).toMatchObject({
          title: 'Test vote for Emerald Valley',
          fields: [{ name: 'Player', value: 'VotelistTest', inline: true }, { name: 'Votes this month', value: '0', inline: true }],
        })
        const result = panel.locator('li.test-result[data-channel="discord"]')
        await result.waitFor()
        expect(await result.locator('.outcome').textContent()).toBe('Delivered')
        expect(await result.locator('strong').textContent()).toBe('Discord')

        // A vote that Discord rate limits: its row says so, and that the try is not counted.
        discord.reply({ status: 429, retryAfter: 30 })
        await recordVote(rt, server, 'Steve', ['203.0.113.7'])
        await rt.queue.drain()
        await discord.waitFor(2)
        await page.goto(`${base}/dashboard/servers/${server.slug}/deliveries`)
        await page.getByLabel('Channel').selectOption('discord')
        const row = page.locator('tr[data-attempt-id]', { hasText: 'Steve' })
        await row.waitFor()
        expect(await row.locator('td[data-label="Channel"]').textContent()).toBe('Discord')
        expect(await row.locator('td[data-label="Attempt"]').textContent()).toBe('1 of 8rate limited · not counted')
        expect(await row.locator('td[data-label="Error or status"] .failure-label').textContent()).toBe('Rate limited')
        expect(await row.locator('td[data-label="Error or status"] .failure-text').textContent())
          .toBe('Discord answered 429: "You are being rate limited.": rate limited, so the next attempt waits 30 s, as Discord asked')
        expect(await page.locator('tr[data-attempt-id]', { hasText: 'VotelistTest' }).locator('td[data-label="Channel"]').textContent()).toBe('Discord')
        expect({ problems: await checkView(page, 'discord-deliveries') }).toEqual({ problems: {} })

        await page.goto(`${base}/dashboard/servers/${server.slug}/api`)
        await section.getByRole('button', { name: 'Remove the Discord webhook' }).click()
        await section.getByRole('button', { name: 'Save the Discord webhook' }).waitFor()
        expect(await rt.store.channels.discord(server.id)).toBeNull()
      })
    } finally {
      await app.stop()
    }
  }, 120_000)
})
