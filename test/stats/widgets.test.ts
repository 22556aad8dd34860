import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { catalogJson } from '../../src/i18n/translate.ts'
import { HOUR } from '../../src/stats/repo.ts'
import { recordRound } from '../../src/stats/round.ts'
import type { App } from '../../src/app.ts'
import { cleanupTemp, seedServer, testApp, testRuntime, type TestRuntime } from '../helpers.ts'
import { until } from '../until.ts'

// The chart and the global widget in Chromium on a phone-sized screen, against the real app
// listening on 127.0.0.1 with generated measurements.

const NOW = Date.UTC(2026, 10, 22, 18, 2, 0)
const FIVE = 300_000
let rt: TestRuntime
let app: App
let base: string
let browser: Browser
let slug: string

beforeAll(async () => {
  rt = testRuntime({}, NOW)
  const { server } = await seedServer(rt, { name: 'Chart Server' })
  await seedServer(rt, { name: 'Other Server', edition: 'bedrock' })
  slug = server.slug
  const targets = rt.store.servers.pingTargets()
  await rt.store.write(function* (tx) {
    // Ten days of rounds; server 1 is down for one hour a day.
    for (let t = NOW - 10 * 24 * HOUR - ((NOW - 10 * 24 * HOUR) % FIVE); t <= NOW; t += FIVE) {
      yield* recordRound(tx, t, targets, targets.map((target) => {
        const down = target.num === 1 && new Date(t).getUTCHours() === 3
        const players = down ? 0 : target.num === 1 ? 20 + ((t / FIVE) % 30) : 7
        return { serverNum: target.num, serverId: target.id, at: t, status: { online: !down, playersOnline: players, playersMax: 100, version: null, motd: null, styledMotd: null, favicon: null, latencyMs: null, error: down ? 'connection refused' : null } }
      }))
    }
  })
  app = await testApp(rt)
  app.listen({ hostname: '127.0.0.1', port: 0 })
  base = app.server!.url.href.replace(/\/$/, '')
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
  cleanupTemp()
})

async function phonePage(html: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, acceptDownloads: true, locale: 'en-US' })
  const page = await context.newPage()
  // The widgets read their words from the page's catalog, as the site's pages carry it.
  const catalog = `<script type="application/json" id="vl-i18n">${catalogJson('en', ['script.', 'format.', 'error.'])}</script>`
  await page.route(`${base}/widget-test`, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width,initial-scale=1">${catalog}</head><body style="margin:0;padding:12px">${html}<script type="module" src="/assets/stats-widgets.js"></script></body></html>` }))
  await page.goto(`${base}/widget-test`)
  return page
}
// Waits until the element's text satisfies `check` (the widgets fill in asynchronously), and
// returns the last text read, so that an expectation on it shows what was there instead.
async function textOf(page: Page, selector: string, check: (text: string) => boolean): Promise<string> {
  let text = ''
  await until(async () => check(text = (await page.textContent(selector)) ?? ''), `${selector} to fill in`).catch(() => {})
  return text
}
const api = async (path: string) => (await fetch(`${base}${path}`)).json()
// The site's English formats (en-GB): 1,234.5 and 99.5%.
const format = (n: number) => new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 }).format(n)
const percent = (ratio: number) => new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 }).format(ratio)

describe('history chart', () => {
  test('fills #history on a phone: chart within the screen, uptime, peak, CSV link; the range selector switches', async () => {
    const page = await phonePage(`<div id="history" data-slug="${slug}"></div>`)
    await page.waitForSelector('#history .vl-chart canvas')
    const day = await api(`/api/v1/servers/${slug}/history?range=24h`)
    expect(await textOf(page, '.vl-figures', (t) => t.includes(format(day.summary.peak)))).toContain(format(day.summary.peak))
    const figures = await page.$$eval('.vl-figure', (items) => items.map((i) => i.textContent))
    expect(figures).toEqual([`Uptime${percent(day.summary.uptime)}`, `Peak${format(day.summary.peak)}`, `Average${format(day.summary.avg)}`])
    expect(await page.getAttribute('.vl-csv', 'href')).toBe(`/api/v1/servers/${slug}/history?range=24h&format=csv`)
    expect(await page.getAttribute('.vl-range[data-range="24h"]', 'aria-pressed')).toBe('true')
    // Nothing wider than the screen; the chart uses the width it has.
    const layout = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth, screen: window.innerWidth,
      canvas: (document.querySelector('.vl-chart canvas') as HTMLCanvasElement).getBoundingClientRect().width,
    }))
    expect(layout.page).toBeLessThanOrEqual(layout.screen)
    expect(layout.canvas).toBeGreaterThan(layout.screen * 0.8)
    expect(layout.canvas).toBeLessThanOrEqual(layout.screen)

    await page.tap('.vl-range[data-range="7d"]')
    const week = await api(`/api/v1/servers/${slug}/history?range=7d`)
    expect(await page.getAttribute('.vl-range[data-range="7d"]', 'aria-pressed')).toBe('true')
    const weekUptime = percent(week.summary.uptime)
    expect(await textOf(page, '.vl-figure:first-child dd', (t) => t === weekUptime)).toBe(weekUptime)
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('.vl-csv')])
    expect(download.suggestedFilename()).toBe(`${slug}-7d.csv`)
    expect(readFileSync((await download.path())!, 'utf8').split('\n')[0]).toBe('t,avg,max')
    await page.context().close()
  }, 30_000)

  test('an unknown slug shows that statistics are unavailable', async () => {
    const page = await phonePage('<div id="history" data-slug="nobody"></div>')
    const message = 'Statistics are unavailable right now (No server with the slug "nobody" is listed).'
    expect(await textOf(page, '.vl-status', (t) => t === message)).toBe(message)
    await page.context().close()
  }, 30_000)
})

describe('global players', () => {
  test('fills #global-players with the players now and the 24 h peak, per filter', async () => {
    const page = await phonePage('<div id="global-players"></div><div id="elsewhere"></div>')
    const all = await api('/api/v1/stats/global?range=24h')
    const now = format(Math.round(all.points.at(-1).avg))
    expect(await textOf(page, '.vl-global-now', (t) => t === now)).toBe(now)
    expect(await page.textContent('.vl-global-peak')).toBe(`Peak over 24 h: ${format(all.summary.peak)}`)
    await page.waitForSelector('.vl-global-chart canvas')
    await page.context().close()

    const bedrock = await phonePage('<div id="global-players" data-edition="bedrock"></div>')
    expect(await textOf(bedrock, '.vl-global-now', (t) => t === '7')).toBe('7')
    await bedrock.context().close()
  }, 30_000)

  test('the widget script asks for the uPlot version the binary serves', () => {
    const script = readFileSync(join(import.meta.dir, '../../web/assets/stats-widgets.js'), 'utf8')
    const { version } = JSON.parse(readFileSync(join(import.meta.dir, '../../node_modules/uplot/package.json'), 'utf8'))
    expect(script).toContain(`const VERSION = '${version}'`)
  })
})

describe('on the real public pages', () => {
  test('the server page draws the chart under its heading, and keeps a CSV link without JavaScript', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } })
    const page = await context.newPage()
    await page.goto(`${base}/serveur/${slug}`)
    await page.waitForSelector('#history .vl-chart canvas')
    expect(await page.textContent('#history-title')).toBe('Players over time')
    expect(await page.getAttribute('#history .vl-csv', 'href')).toBe(`/api/v1/servers/${slug}/history?range=24h&format=csv`)
    await context.close()

    const noJs = await browser.newContext({ javaScriptEnabled: false })
    const plain = await noJs.newPage()
    await plain.goto(`${base}/serveur/${slug}`)
    expect(await plain.getAttribute('#history a[download]', 'href')).toBe(`/api/v1/servers/${slug}/history?range=7d&format=csv`)
    await noJs.close()
  })

  test('the ranking page shows the players online on all listed servers', async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/`)
    const now = await api('/api/v1/stats/global?range=24h')
    const last = now.points[now.points.length - 1]
    expect(await textOf(page, '#global-players', (t) => t.includes('players online now'))).toContain(`${format(last.avg)} players online now`)
    await page.close()
  })
})
