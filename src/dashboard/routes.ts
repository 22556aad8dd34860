import { staticPlugin } from '@elysiajs/static'
import { Elysia } from 'elysia'
import type { Config } from '../config/load.ts'
import { join } from '../file-path.ts'
import { atFirstUse } from '../first-use.ts'
import { catalogOf, LANGUAGES } from '../i18n/catalogs.ts'
import { chooseLanguage, LANGUAGE_VARY } from '../i18n/negotiate.ts'
import { switchLanguageHref } from '../i18n/routes.ts'
import { catalogJson, translatorFor } from '../i18n/translate.ts'
import { escapeHtml } from '../pages/html.ts'
import type { TextKey } from '../../web/assets/translate.js'
import { webDir } from '../paths.ts'

const dashboardDir = join(webDir, 'dashboard')

// The dashboard runs only its own files: no inline script or style, nothing from another host,
// never framed. Its scripts talk to the owner API of the same origin.
export const DASHBOARD_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ')

// nosniff and the referrer policy come with every answer of the site (src/http/security-headers.ts).
const securityHeaders = {
  'content-security-policy': DASHBOARD_CSP,
  'x-frame-options': 'DENY',
}

// index.html names the site and lists its game modes (the add-server form offers them), and
// carries the visitor's language: its own words ({{t:key}}), the switcher, and the catalog the
// scripts read (a JSON data block, never run: the policy allows no inline script). One page per
// language, made at its first request and kept; every value is escaped into it.
function renderShell(template: string, config: Config, lang: string): string {
  const tr = translatorFor(lang)
  const switcher = LANGUAGES.map((code) => (code === lang
    ? `<span lang="${code}" aria-current="true">${escapeHtml(catalogOf(code).name)}</span>`
    : `<a lang="${code}" hreflang="${code}" href="${escapeHtml(switchLanguageHref(code, '/dashboard'))}">${escapeHtml(catalogOf(code).name)}</a>`))
    .join('<span aria-hidden="true"> · </span>')
  return template
    .replaceAll('{{lang}}', lang)
    .replaceAll('{{siteName}}', escapeHtml(config.site.name))
    .replaceAll('{{modes}}', escapeHtml(config.servers.modes.join(',')))
    .replaceAll('{{catalog}}', catalogJson(lang, DASHBOARD_MESSAGES))
    .replace('{{switcher}}', `<nav class="lang-switch" aria-label="${escapeHtml(tr.t('layout.language'))}">${switcher}</nav>`)
    .replace(/\{\{t:([\w.]+)\}\}/g, (_, key: string) => escapeHtml(tr.t(key as TextKey)))
}

// What the dashboard's scripts say (web/dashboard/i18n.js).
const DASHBOARD_MESSAGES = ['dash.', 'error.', 'format.', 'common.']

// The dashboard's modules and stylesheet: web/dashboard's other files, at /assets/dashboard/…,
// from the files embedded in the binary (or the checkout in development), mounted with the
// site's other files (src/assets.ts). `no-cache` lets the browser keep them but revalidate
// by ETag, so an upgraded binary never runs with yesterday's scripts.
export const dashboardAssets = () => staticPlugin({
  assets: dashboardDir, prefix: '/assets/dashboard', alwaysStatic: true, maxAge: 0, directive: 'no-cache',
  ignorePatterns: [/index\.html$/, /\.DS_Store$/], headers: securityHeaders, silent: true,
})

// /dashboard and every path under it answer the same page (the script routes on the path). Its
// template is read at the first request for the page rather than at start (a read through Bun's
// thread pool: with the default icon's, about 3 ms of a start on an existing database).
export function dashboardRoutes(config: Config) {
  const readTemplate = atFirstUse(() => Bun.file(join(dashboardDir, 'index.html')).text())
  const pages = new Map<string, string>()
  const pageAnswer = (page: string, lang: string) => new Response(page, {
    headers: {
      'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-language': lang, vary: LANGUAGE_VARY, ...securityHeaders,
    },
  })
  const firstAnswer = async (lang: string) => {
    const page = renderShell(await readTemplate(), config, lang)
    pages.set(lang, page)
    return pageAnswer(page, lang)
  }
  const answer = ({ request }: { request: Request }) => {
    const lang = chooseLanguage(request, config.site.language)
    const page = pages.get(lang)
    return page === undefined ? firstAnswer(lang) : pageAnswer(page, lang)
  }
  const detail = { hide: true }
  return new Elysia({ name: 'dashboard.routes' })
    .get('/dashboard', answer, { detail })
    .get('/dashboard/*', answer, { detail })
}
