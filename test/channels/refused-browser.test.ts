import { afterAll, beforeAll, expect, test } from 'bun:test'
import { chromium, type Browser } from 'playwright-core'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import { saveDiscord, saveWebhook } from '../../src/channels/service.ts'
import { checkView, inDashboard } from '../dashboard/page-checks.ts'
import { deliveryRuntime, freePort } from '../deliveries/setup.ts'
import { WEBHOOK_ID, WEBHOOK_TOKEN } from '../discord/discord-receiver.ts'
import { cleanupTemp, siteAgain, testApp } from '../helpers.ts'

// In Debian's Chromium: after the admin turned network.allow_private_targets off, the API tab
// says, under each saved URL the site no longer sends to, why and what to do; saving an allowed
// URL clears it.

let browser: Browser
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  cleanupTemp()
})

test('the API tab shows which saved URL no longer passes, and why; an allowed URL clears it', async () => {
  const port = freePort()
  const base = `http://127.0.0.1:${port}`
  const { rt: before, owner, server } = await deliveryRuntime('sqlite', { site: { base_url: base } }, undefined, Date.now())
  await saveWebhook(before, server.id, 'http://127.0.0.1:8123/hook')
  await saveDiscord(before, server.id, `https://hooks.example.com/api/webhooks/${WEBHOOK_ID}/${WEBHOOK_TOKEN}`)
  await before.store.close()
  const rt = await siteAgain({ ...before, config: { ...before.config, network: { ...before.config.network, allow_private_targets: false } } })
  const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port })
  const cookie = `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, owner.id)).token}`
  try {
    await inDashboard(browser, base, cookie, async (page) => {
      await page.goto(`${base}/dashboard/servers/${server.slug}/api`)
      const webhook = page.locator('section#webhook')
      const discord = page.locator('section#discord')
      await webhook.getByLabel('Webhook URL').waitFor()
      expect(await webhook.locator('.notice-error:not([hidden])').textContent()).toBe(
        'Votes are not sent to this URL any more: http:// targets are not allowed on this site (network.allow_private_targets is off): set an https:// URL. No vote is lost: save an allowed URL and the next retries use it; Redeliver, in the Deliveries tab, sends the ones that gave up.')
      expect(await discord.locator('.notice-error:not([hidden])').textContent()).toStartWith(
        'Votes are not sent to this URL any more: this site only posts to Discord\'s own webhook URLs, https://discord.com/api/webhooks/<id>/<token> (network.allow_private_targets is off)')
      expect({ problems: await checkView(page, 'channel-refused') }).toEqual({ problems: {} })

      // The owner saves an https:// URL (a public name here; nothing is sent): the notice goes.
      await webhook.getByLabel('Webhook URL').fill('https://hooks.example.com/votes')
      await webhook.getByRole('button', { name: 'Save URL' }).click()
      await webhook.locator('.notice-error:not([hidden])').waitFor({ state: 'detached' })
      expect((await rt.store.channels.webhook(server.id))?.url).toBe('https://hooks.example.com/votes')
      expect(await discord.locator('.notice-error:not([hidden])').count()).toBe(1)
    })
  } finally {
    await app.stop(true)
  }
}, 60_000)
