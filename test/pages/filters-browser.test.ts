import { describe, expect, test } from 'bun:test'
import { browserForFile } from '../chromium.ts'
import { seedServer, testApp, testRuntime } from '../helpers.ts'

// The ranking's filters, as a player goes back and forth between filtered lists: the form always
// shows the filters of the list under it.

const browser = browserForFile()

describe('the ranking\'s filters in a browser', () => {
  test('Back to a filtered list shows that list\'s filters, not the ones chosen for the next list', async () => {
    const rt = testRuntime({ servers: { modes: ['survival', 'pvp'] } })
    await seedServer(rt, { name: 'Alpha Valley', modes: ['pvp'] })
    await seedServer(rt, { name: 'Bravo Realm', modes: ['survival'], edition: 'bedrock' })
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
    const base = `http://127.0.0.1:${app.server!.port}`
    const page = await browser().newPage()
    const shown = async () => ({
      url: page.url().slice(base.length),
      search: await page.inputValue('#search'),
      edition: await page.inputValue('#edition'),
      mode: await page.inputValue('#mode'),
      servers: await page.locator('h2.server-name').allTextContents(),
    })
    try {
      await page.goto(`${base}/?mode=pvp&search=alpha`)
      await page.fill('#search', '')
      await page.selectOption('#edition', 'bedrock')
      await page.selectOption('#mode', 'survival')
      await Promise.all([page.waitForURL(/mode=survival/), page.click('form.filters button[type="submit"]')])
      expect(await shown()).toEqual({ url: '/?search=&edition=bedrock&mode=survival', search: '', edition: 'bedrock', mode: 'survival', servers: ['Bravo Realm'] })
      await page.goBack()
      expect(await shown()).toEqual({ url: '/?mode=pvp&search=alpha', search: 'alpha', edition: '', mode: 'pvp', servers: ['Alpha Valley'] })
      await page.goForward()
      expect(await shown()).toEqual({ url: '/?search=&edition=bedrock&mode=survival', search: '', edition: 'bedrock', mode: 'survival', servers: ['Bravo Realm'] })
    } finally {
      await page.close()
      await app.stop()
    }
  }, 60_000)
})
