import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { repoRoot } from '../spawn.ts'
import { findHtmlFileText, findLiteralText, type Finding } from './literal-text.ts'

// Every page a person reads says its words through the catalogs (web/i18n): no template of the
// pages, the vote page, the badge, the dashboard or the pages' scripts holds text of its own.
// How the check reads the code: test/i18n/literal-text.ts.

const inDir = (dir: string, ext: string) => readdirSync(join(repoRoot, dir)).filter((f) => f.endsWith(ext)).map((f) => join(dir, f))

// Left out, and why: the API reference page is English by decision (docs/developers.md,
// "Languages"): it is written from the OpenAPI document, whose descriptions, codes and messages
// are English; openapi-text.ts renders that document's markdown. (src/captcha/routes.ts serves
// the captcha widget's script: its words are the catalogs' altcha.* messages.)
const ENGLISH_BY_DESIGN = new Set(['src/pages/api-docs-page.ts', 'src/pages/api-docs.ts', 'src/pages/openapi-text.ts'])

const TEMPLATES = [
  ...inDir('src/pages', '.ts').filter((f) => !ENGLISH_BY_DESIGN.has(f)),
  'src/votes/vote-page.ts', 'src/stats/badge.ts', 'src/dashboard/routes.ts', 'src/i18n/routes.ts',
  ...inDir('web/dashboard', '.js'), ...inDir('web/assets', '.js'),
]

// Strings that are not language in any of the site's languages: a font list, lists of class names
// and element ids.
const NOT_LANGUAGE = new Set(['DejaVu Sans,Verdana,Geneva,sans-serif', 'table deliveries', 'vote-error pseudo-hint'])

function check(file: string): Finding[] {
  const source = readFileSync(join(repoRoot, file), 'utf8')
  const found = file.endsWith('.html') ? findHtmlFileText(file, source) : findLiteralText(file, source)
  return found.filter((f) => !NOT_LANGUAGE.has(f.text))
}

describe('no page template holds words of its own', () => {
  test('the checked files are the site\'s templates and scripts', () => {
    expect(TEMPLATES).toContain('src/pages/layout.ts')
    expect(TEMPLATES).toContain('web/dashboard/app.js')
    expect(TEMPLATES).toContain('web/assets/stats-widgets.js')
    expect(TEMPLATES.length).toBeGreaterThan(40)
  })

  test('src/pages, the vote page, the badge, the dashboard, the pages\' scripts and the dashboard\'s HTML', () => {
    const found = [...TEMPLATES, 'web/dashboard/index.html'].flatMap(check).map((f) => `${relative('.', f.file)}:${f.line} ${JSON.stringify(f.text)}`)
    expect(found).toEqual([])
  })

  test('the check finds words where they would be read', () => {
    const js = (code: string) => findLiteralText('x.js', code).map((f) => f.text)
    const ts = (code: string) => findLiteralText('x.ts', code).map((f) => f.text)
    expect(js("h('p', null, 'Hello there')")).toEqual(['Hello there'])
    expect(js("h('button', { type: 'button' }, 'Save')")).toEqual(['Save'])
    expect(js("h('span', null, 'never')")).toEqual(['never'])
    expect(js("h('img', { alt: 'Banner' })")).toEqual(['Banner'])
    expect(js("field({ name: 'host', label: 'Listener host' })")).toEqual(['Listener host'])
    expect(js("el.textContent = 'Copied'")).toEqual(['Copied'])
    expect(js("announce(`${name} is hidden.`)")).toEqual(['is hidden.'])
    expect(js("actionButton('Remove the banner', remove)")).toEqual(['Remove the banner'])
    expect(js("const note = 'Times in your time zone.'")).toEqual(['Times in your time zone.'])
    expect(ts('html`<p>Vote for ${name}</p>`')).toEqual(['Vote for'])
    expect(ts('html`<a href="/" title="Back home">${x}</a>`')).toEqual(['Back home'])
    expect(ts('html`<p>${ok ? html`<strong>Rank</strong>` : tr.t("a.b")}</p>`')).toEqual(['Rank'])
    expect(findHtmlFileText('x.html', '<p>Loading…</p>\n<p>{{t:x}}</p>').map((f) => f.text)).toEqual(['Loading…'])
  })

  test('and leaves alone what is not read: keys, names, selectors, addresses, code, comparisons, the API\'s detail', () => {
    const js = (code: string) => findLiteralText('x.js', code).map((f) => f.text)
    expect(js(`
      t('dash.nav.servers'); tn('dash.users.lead', 2)
      h('div', { class: 'muted small', role: 'status', 'aria-live': 'polite' }, t('x.y'))
      h('code', null, 'votelist user add')
      document.querySelector('tr[data-user-id="x"] button')
      el.setAttribute('aria-pressed', 'true')
      if (s.status === 'gave_up') {}
      fetch('/api/v1/me/servers', { credentials: 'same-origin' })
      import('../types/api')
      throw new ApiError(0, 'NETWORK', 'the site could not be reached')
    `)).toEqual([])
    expect(findLiteralText('x.ts', `
      new Elysia().get('/x', () => 1, { detail: { summary: 'Ranking page', description: 'HTML. Listed servers.' } })
      throw invalidParameter('month must be a month written YYYY-MM', 'month')
      html\`<code>motd=A Minecraft Server</code><span class="pill pill-java">\${x}</span> · #\${n}\`
    `)).toEqual([])
  })
})
