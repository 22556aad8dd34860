import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { repoRoot } from '../spawn.ts'

// What every dashboard view must pass in the browser tests, and the screenshots CI keeps.

export const ARTIFACTS = join(repoRoot, 'test/artifacts/dashboard')
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

// Every request the pages make goes through here: loopback ones pass, anything else is aborted
// and recorded (the dashboard must never reach another host: fonts, scripts, images, APIs).
export async function recordExternalRequests(context: BrowserContext): Promise<string[]> {
  const external: string[] = []
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url())
    if (LOOPBACK.has(url.hostname)) return route.continue()
    external.push(url.href)
    return route.abort('blockedbyclient')
  })
  return external
}

// Script errors and Content-Security-Policy violations of a page.
export function recordPageProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`script error: ${e.message}`))
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (load|execute|apply)/i.test(m.text())) problems.push(`CSP: ${m.text()}`)
  })
  return problems
}

export interface ViewReport {
  overflow: number // px of horizontal scrolling (0: the page fits the screen)
  unlabeled: string[] // form controls without a label
  unnamed: string[] // buttons and links without an accessible name
  lowContrast: string[] // text under the WCAG AA contrast ratio
}

// Runs in the page: layout, labels and contrast as a browser computes them.
function inspect(): ViewReport {
  const visible = (el: Element) => {
    if (el.closest('[hidden], .visually-hidden, .skip-link')) return false
    const style = getComputedStyle(el)
    return el.getClientRects().length > 0 && style.visibility !== 'hidden' && style.display !== 'none'
  }
  const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`

  const unlabeled = [...document.querySelectorAll('input, select, textarea')]
    .filter((el) => (el as HTMLInputElement).type !== 'hidden' && visible(el))
    .filter((el) => !(el as HTMLInputElement).labels?.length && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
    .map(describe)
  const unnamed = [...document.querySelectorAll('button, a[href]')]
    .filter((el) => visible(el) && !(el.textContent ?? '').trim() && !el.getAttribute('aria-label'))
    .map(describe)

  const rgb = (c: string) => {
    const [r, g, b, a = 1] = (c.match(/[\d.]+/g) ?? ['0', '0', '0', '0']).map(Number)
    return { r, g, b, a }
  }
  const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
    const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
  }
  const background = (el: Element | null) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor)
      if (c.a > 0.5) return c
    }
    return { r: 255, g: 255, b: 255, a: 1 }
  }
  const lowContrast: string[] = []
  for (const el of document.querySelectorAll('body *')) {
    const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim())
    if (!ownText || !visible(el) || (el as HTMLButtonElement).disabled) continue
    const style = getComputedStyle(el)
    const [l1, l2] = [luminance(rgb(style.color)), luminance(background(el))].sort((a, b) => b - a)
    const ratio = (l1 + 0.05) / (l2 + 0.05)
    const size = parseFloat(style.fontSize)
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)
    if (ratio < (large ? 3 : 4.5)) lowContrast.push(`${describe(el)}: ${ratio.toFixed(2)}`)
  }
  return { overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth, unlabeled, unnamed, lowContrast }
}

const clean: ViewReport = { overflow: 0, unlabeled: [], unnamed: [], lowContrast: [] }

// The current view at 1280, 375 and 360 px wide, light and dark: it must fit the width, label
// every control and keep AA contrast. Screenshots at 1280 and 375 px (light) go to
// test/artifacts/dashboard/<name>-<width>.png. Returns the problems found (none expected).
export async function checkView(page: Page, name: string): Promise<Record<string, ViewReport>> {
  mkdirSync(ARTIFACTS, { recursive: true })
  const found: Record<string, ViewReport> = {}
  const original = page.viewportSize() ?? { width: 1280, height: 900 }
  for (const width of [1280, 375, 360]) {
    await page.setViewportSize({ width, height: 900 })
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await page.evaluate(() => new Promise(requestAnimationFrame))
      const report = await page.evaluate(inspect)
      if (JSON.stringify(report) !== JSON.stringify(clean)) found[`${width} ${colorScheme}`] = report
    }
    await page.emulateMedia({ colorScheme: 'light' })
    if (width !== 360) await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize(original)
  return found
}

// Runs `steps` on a fresh page of the dashboard at `base` (signed in with `cookie`, a `name=value`
// pair, when given), then requires that the pages reached no other host and met no script error
// or CSP violation. Confirmation dialogs are accepted. The context is closed whatever happens.
export async function inDashboard(browser: Browser, base: string, cookie: string | null,
  steps: (page: Page, context: BrowserContext) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  try {
    const external = await recordExternalRequests(context)
    if (cookie) await signIn(context, base, cookie)
    const page = await context.newPage()
    page.on('dialog', (d) => void d.accept())
    const problems = recordPageProblems(page)
    await steps(page, context)
    expect({ external, problems }).toEqual({ external: [], problems: [] })
  } finally {
    await context.close()
  }
}

// The session cookie (`name=value`) given to the browser for the site at `base`.
export function signIn(context: BrowserContext, base: string, cookie: string) {
  const at = cookie.indexOf('=')
  return context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: base }])
}
