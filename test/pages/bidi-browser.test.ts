import { describe, expect, test } from 'bun:test'
import type { Locator } from 'playwright-core'
import { browserForFile } from '../chromium.ts'
import { markAfter } from '../bidi-checks.ts'
import { recordVote } from '../../src/votes/service.ts'
import { seedServer, testApp, testRuntime } from '../helpers.ts'

// A server's name is its owner's text: whatever direction marks it holds (a right-to-left
// override, an isolate it never closes), it is drawn as one piece, and the site's own words
// around it keep their reading order.

const browser = browserForFile()

// Whether `word`, inside `scope`, is drawn left to right: its first letter left of its last.
async function readsLeftToRight(scope: Locator, word: string): Promise<boolean> {
  return scope.evaluate((el, word) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(word)
      if (at < 0) continue
      const box = (i: number) => {
        const r = document.createRange()
        r.setStart(node, i)
        r.setEnd(node, i + 1)
        return r.getBoundingClientRect()
      }
      return box(at).left < box(at + word.length - 1).left
    }
    throw new Error(`"${word}" is not in ${el.outerHTML}`)
  }, word)
}

describe('a server name holding direction marks', () => {
  for (const [what, name] of [['a right-to-left override', '\u202Eevil'], ['an isolate closed by a stray mark', '\u2069\u202Eevil']] as const) {
    test(`(${what}) leaves the words around it in their order on the ranking, the server page and the vote page`, async () => {
      const rt = testRuntime()
      const { server } = await seedServer(rt, { name })
      rt.db.run('UPDATE server SET verified_at = ? WHERE id = ?', [rt.clock.now(), server.id])
      const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
      const base = `http://127.0.0.1:${app.server!.port}`
      const page = await browser().newPage()
      try {
        await page.goto(`${base}/`)
        expect(await markAfter(page.locator('li.server-row h2.server-name'), 'evil')).toBe(true)
        await page.goto(`${base}/serveur/${server.slug}`)
        expect(await markAfter(page.locator('main h1'), 'evil')).toBe(true)
        expect(await readsLeftToRight(page.locator('main a.button-primary'), 'Vote for')).toBe(true)
        await page.goto(`${base}/serveur/${server.slug}/voter`)
        expect(await readsLeftToRight(page.locator('main nav.crumbs'), 'Vote')).toBe(true)
        expect(await markAfter(page.locator('main h1'), 'evil')).toBe(true)
        const vote = await recordVote(rt, server, 'Steve', ['198.51.100.7'])
        await page.goto(`${base}/serveur/${server.slug}/voter?vote=${vote.vote.id}`)
        expect(await readsLeftToRight(page.locator('section.notice-success'), 'was recorded on')).toBe(true)
      } finally {
        await page.close()
        await app.stop()
      }
    }, 30_000)
  }
})
