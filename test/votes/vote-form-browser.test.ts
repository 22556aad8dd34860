import { describe, expect, test } from 'bun:test'
import { recordVote } from '../../src/votes/service.ts'
import { browserForFile } from '../chromium.ts'
import { seedServer, testApp, testRuntime } from '../helpers.ts'
import { onFreeDualStackPort } from '../real-server.ts'

// A refused vote as a player with a screen reader meets it: the form comes back with the reason,
// and the focus is where the reason is read out, not at the top of a page that looks unchanged.

const browser = browserForFile()

// The site on a free port, its base_url that address (the vote form's Origin must be it).
const siteOnLoopback = () => onFreeDualStackPort(async (port) => {
  const base = `http://127.0.0.1:${port}`
  const rt = testRuntime({ site: { base_url: base } }, Date.now())
  const app = (await testApp(rt)).listen({ hostname: '::', port })
  return { rt, base, stop: () => app.stop() }
})

describe('a refused vote in a browser', () => {
  test('a refused name: the name field has the focus, marked invalid and described by the reason, with what was typed', async () => {
    const site = await siteOnLoopback()
    const { server } = await seedServer(site.rt, { name: 'Emerald Valley' })
    const page = await browser().newPage()
    try {
      await page.goto(`${site.base}/serveur/${server.slug}/voter`)
      await page.locator('form[data-vote-form] input#pseudo').fill('ab')
      // Sent as an old browser would, without the field's own check.
      await Promise.all([page.waitForNavigation(), page.locator('form[data-vote-form]').evaluate((f) => (f as HTMLFormElement).submit())])
      await page.locator('#vote-error').waitFor()
      expect(await page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement
        return { id: el.id, value: el.value, invalid: el.getAttribute('aria-invalid'), describedBy: el.getAttribute('aria-describedby') }
      })).toEqual({ id: 'pseudo', value: 'ab', invalid: 'true', describedBy: 'vote-error pseudo-hint' })
    } finally {
      await page.close()
      site.stop()
    }
  }, 30_000)

  test('a vote too soon: the reason has the focus', async () => {
    const site = await siteOnLoopback()
    const { server } = await seedServer(site.rt, { name: 'Emerald Valley' })
    await recordVote(site.rt, server, 'Steve', ['198.51.100.7'])
    const page = await browser().newPage()
    try {
      await page.goto(`${site.base}/serveur/${server.slug}/voter?pseudo=Steve`)
      await Promise.all([page.waitForNavigation(), page.locator('form[data-vote-form] button[type="submit"]').click()])
      await page.locator('#vote-error').waitFor()
      expect(await page.locator('#vote-error').textContent()).toContain('You already voted for Emerald Valley recently')
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('vote-error')
      expect(await page.inputValue('form[data-vote-form] input#pseudo')).toBe('Steve')
    } finally {
      await page.close()
      site.stop()
    }
  }, 30_000)
})

describe('a vote sent twice in a browser', () => {
  test('dual-stack capture: a double click on Vote sends one vote, and the player gets the thank-you, not "you already voted"', async () => {
    const site = await onFreeDualStackPort(async (port) => {
      const rt = testRuntime({ site: { base_url: `http://localhost:${port}`, ipv4_url: `http://127.0.0.1:${port}`, ipv6_url: `http://[::1]:${port}` } }, Date.now())
      const app = (await testApp(rt)).listen({ hostname: '::', port })
      return { rt, base: `http://localhost:${port}`, stop: () => app.stop() }
    })
    const { server } = await seedServer(site.rt, { name: 'Emerald Valley' })
    const page = await browser().newPage()
    const posts: string[] = []
    page.on('request', (r) => { if (r.method() === 'POST') posts.push(r.url()) })
    try {
      await page.goto(`${site.base}/serveur/${server.slug}/voter?pseudo=Steve`)
      await page.locator('form[data-vote-form] button[type="submit"]').dblclick()
      const outcome = page.locator('section.notice-success, #vote-error')
      await outcome.waitFor()
      expect(await outcome.locator('h2, p').first().textContent()).toBe('Thank you, Steve!')
      expect(posts).toEqual([`${site.base}/serveur/${server.slug}/voter`])
      expect(site.rt.db.query('SELECT pseudo FROM vote').all()).toEqual([{ pseudo: 'Steve' }])
    } finally {
      await page.close()
      site.stop()
    }
  }, 30_000)
})
