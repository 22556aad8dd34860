import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { chromium, type Browser } from 'playwright-core'
import { translatorFor } from '../../src/i18n/translate.ts'
import { renderBadge, textWidth } from '../../src/stats/badge.ts'
import { recordVote } from '../../src/votes/service.ts'
import { call, cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'
import { parseXml, type XmlElement } from './xml-check.ts'

afterAll(cleanupTemp)

const texts = (el: XmlElement): XmlElement[] => [...(el.name === 'text' ? [el] : []), ...el.children.flatMap(texts)]
const badgeOf = (name: string, rank: number | null = 3, theme: 'light' | 'dark' = 'light') => renderBadge({ tr: translatorFor('en'), name, rank, theme, siteName: 'My <List> & Co' })

describe('badge SVG', () => {
  test('well-formed XML whatever the name: markup characters escaped, forbidden characters dropped', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 80 }), fc.option(fc.integer({ min: 1, max: 100_000 })), fc.constantFrom('light', 'dark'), (name, rank, theme) => {
      const svg = parseXml(badgeOf(name, rank, theme as 'light' | 'dark'))
      expect(svg.name).toBe('svg')
      // Each run is drawn twice (shadow, then text): name, name, vote, vote.
      const runs = texts(svg)
      expect(runs.length).toBe(4)
      const shown = name.replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '').replace(/\s+/g, ' ').trim() || '—'
      if (runs[1].text.endsWith('…') && !shown.endsWith('…')) expect(shown.startsWith(runs[1].text.slice(0, -1).trimEnd())).toBe(true)
      else expect(runs[1].text).toBe(shown)
      expect(runs[0].text).toBe(runs[1].text)
      expect(runs[2].text).toBe(rank === null ? 'Vote for us' : `Vote for us · #${rank}`)
      // The text boxes fit inside the badge.
      const width = Number(svg.attrs.width)
      for (const r of runs) expect(Number(r.attrs.x) + Number(r.attrs.textLength)).toBeLessThanOrEqual(width)
    }), { numRuns: 300 })
  })

  test('the XML check itself rejects what is not well-formed', () => {
    const bad = ['<a>x &amp y</a>', '<a><b></a></b>', '<a x="1" x="2"/>', '<a x="<"/>', '<a>\u0001</a>', '<a/><b/>', '<a>', '<a x=1/>', '<a>&nbsp;</a>']
    for (const doc of bad) expect(() => parseXml(doc)).toThrow()
    expect(parseXml('<a x="&lt;1&#x41;">t&amp;<b/>u</a>')).toEqual({ name: 'a', attrs: { x: '<1A' }, text: 't&u', children: [{ name: 'b', attrs: {}, children: [], text: '' }] })
  })

  test('the name is shown as given, escaped; a long name widens the badge, up to a cut with an ellipsis', () => {
    const svg = parseXml(badgeOf('Tom & Jerry\'s <"Best"> SMP'))
    expect(texts(svg)[1].text).toBe('Tom & Jerry\'s <"Best"> SMP')
    expect(svg.children.find((c) => c.name === 'title')!.text).toBe('Vote for Tom & Jerry\'s <"Best"> SMP, ranked #3 on My <List> & Co')
    const short = Number(parseXml(badgeOf('Mini')).attrs.width)
    const longer = Number(parseXml(badgeOf('Mini Mini Mini Mini')).attrs.width)
    expect(longer - short).toBeCloseTo(textWidth('Mini Mini Mini Mini') - textWidth('Mini'), -1)
    const huge = parseXml(badgeOf('W'.repeat(200)))
    expect(texts(huge)[1].text).toMatch(/^W+…$/)
    expect(Number(texts(huge)[1].attrs.textLength)).toBeLessThanOrEqual(220)
  })

  test('a name holding direction marks is set apart in the title, so the words after it keep their order', () => {
    const title = (name: string) => parseXml(badgeOf(name)).children.find((c) => c.name === 'title')!.text
    expect(title('\u202Eevil')).toBe('Vote for \u2068\u202Eevil\u2069, ranked #3 on My <List> & Co')
    expect(title('\u2069\u202Eevil')).toBe('Vote for \u2068\u202Eevil\u2069, ranked #3 on My <List> & Co')
    expect(parseXml(badgeOf('\u202Eevil')).attrs['aria-label']).toBe('Vote for \u2068\u202Eevil\u2069, ranked #3 on My <List> & Co')
    expect(title('Emerald Valley')).toBe('Vote for Emerald Valley, ranked #3 on My <List> & Co')
  })

  test('light and dark themes differ only in colours', () => {
    const light = badgeOf('Emerald Valley', 1, 'light')
    const dark = badgeOf('Emerald Valley', 1, 'dark')
    expect(light).not.toBe(dark)
    const strip = (s: string) => s.replace(/#[0-9a-f]{3,6}/gi, '#')
    expect(strip(light)).toBe(strip(dark))
  })

  test('text widths match what a browser draws with DejaVu Sans (Chromium, within 3 %)', async () => {
    const browser: Browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
    try {
      const page = await browser.newPage()
      const names = ['Vote for us · #12', 'Emerald Valley', 'WWWWWWWWWW', 'iiiiiiiiiiiiiiii', 'Łódź Ñandú Ærø Survival', 'The Quick Brown Fox Jumps Over The Lazy Dog 1.21']
      for (const name of names) {
        const drawn = await page.evaluate((text) => {
          document.body.innerHTML = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="30"><text x="0" y="15" font-family="DejaVu Sans" font-size="11"></text></svg>`
          const el = document.querySelector('text') as SVGTextElement
          el.textContent = text
          return el.getComputedTextLength()
        }, name)
        expect(Math.abs(textWidth(name) - drawn) / drawn).toBeLessThan(0.03)
      }
      // The whole badge parses as SVG in the browser.
      const errors = await page.evaluate((svg) => new DOMParser().parseFromString(svg, 'image/svg+xml').getElementsByTagName('parsererror').length, badgeOf('A & <B>'))
      expect(errors).toBe(0)
    } finally {
      await browser.close()
    }
  }, 30_000)
})

describe('GET /api/v1/servers/{slug}/badge.svg', () => {
  test('live rank, SVG content type, public 60 s cache, theme check', async () => {
    const rt = testRuntime()
    const app = await testApp(rt)
    const { server: a } = await seedServer(rt, { name: 'First Listed' })
    const { server: b } = await seedServer(rt, { name: 'Second Listed' })
    const rankIn = async (slug: string, query = '') => {
      const res = await call(app, 'GET', `/api/v1/servers/${slug}/badge.svg${query}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8')
      expect(res.headers.get('cache-control')).toBe('public, max-age=60')
      return texts(parseXml(await res.text()))[2].text
    }
    expect(await rankIn(b.slug)).toBe('Vote for us · #2')
    await recordVote(rt, b, 'Alex', ['203.0.113.9'])
    expect(await rankIn(b.slug, '?theme=dark')).toBe('Vote for us · #1')
    expect(await rankIn(a.slug, '?theme=light')).toBe('Vote for us · #2')
    const bad = await call(app, 'GET', `/api/v1/servers/${a.slug}/badge.svg?theme=blue`)
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ ok: false, error: { code: 'INVALID_PARAMETER', message: 'theme must be one of light, dark', field: 'theme' } })
  })
})
