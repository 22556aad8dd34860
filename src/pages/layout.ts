import type { Config } from '../config/load.ts'
import type { Awaitable } from '../db/store.ts'
import { ApiError } from '../http/errors.ts'
import { publicPageCsp } from '../http/security-headers.ts'
import { loggableUrl, type Logger } from '../log.ts'
import { catalogOf, LANGUAGES } from '../i18n/catalogs.ts'
import { chooseLanguage, LANGUAGE_PARAM, LANGUAGE_VARY, withLanguage } from '../i18n/negotiate.ts'
import { switchLanguageHref } from '../i18n/routes.ts'
import { catalogJson } from '../i18n/translate.ts'
import { pageText, type Tr } from './text.ts'
import { errorText, type TextKey } from '../../web/assets/translate.js'
import { html, raw, type Html } from './html.ts'
import { FIRST_MONTH, shiftMonth } from '../servers/month.ts'

// The shell of every public page: head metadata (title, description, canonical, the language
// alternates, Open Graph), the site header with the language switcher, the footer, and
// /assets/site.css, all in the visitor's language. Pages work without JavaScript; scripts only
// enhance them and are ES modules from /assets (nothing is requested from another host).

export interface PageMeta {
  title: string // the page's own title; the site name is appended
  description: string
  path: string // path and query of the canonical address, e.g. "/serveur/emerald-valley"
  noindex?: boolean
  styles?: string[] // same-site stylesheets besides /assets/site.css
  scripts?: string[] // the site's own ES modules; the page then carries their messages
  moduleScripts?: string[] // other same-site ES modules (the captcha widget)
}

const DESCRIPTION_MAX = 160

// Meta descriptions are cut at a word near 160 characters, as search engines show them; a cut
// inside an emoji (two UTF-16 units) would leave half of it, sent as "�".
export function summarize(text: string, max = DESCRIPTION_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= max) return flat
  const cut = flat.slice(0, /[\uD800-\uDBFF]/.test(flat[max - 2]) ? max - 2 : max - 1)
  return `${cut.slice(0, cut.lastIndexOf(' ') > max / 2 ? cut.lastIndexOf(' ') : cut.length)}…`
}

// The request a page answers: the site's config, the visitor's language (src/i18n/negotiate.ts)
// and the address asked for (the switcher sends the visitor back to it).
export interface PageView {
  config: Config
  tr: Tr
  url: URL
}

export function pageView(config: Config, request: Request): PageView {
  return { config, tr: pageText(chooseLanguage(request, config.site.language)), url: new URL(request.url) }
}

// The scripts of the pages read these messages (web/assets/translate.js, pageTranslator).
const SCRIPT_MESSAGES = ['script.', 'format.', 'error.']

// The links of the language switcher: each language in its own words, to /language, which
// remembers the choice and brings the visitor back here. Plain links: it works without script.
function renderSwitcher(view: PageView): Html {
  const back = view.url.pathname + view.url.search
  return html`<nav class="lang-switch" aria-label="${view.tr.t('layout.language')}">${LANGUAGES.map((code, i) => {
    const sep = i ? html`<span aria-hidden="true"> · </span>` : ''
    const name = catalogOf(code).name
    return code === view.tr.lang
      ? html`${sep}<span lang="${code}" aria-current="true">${name}</span>`
      : html`${sep}<a lang="${code}" hreflang="${code}" rel="nofollow" href="${switchLanguageHref(code, back)}">${name}</a>`
  })}</nav>`
}

export function renderLayout(view: PageView, meta: PageMeta, body: Html): string {
  const { config, tr } = view
  const site = config.site.name
  const title = meta.title === site ? site : `${meta.title} · ${site}`
  // Without site.base_url the site does not know its public address: a guessed canonical address
  // (localhost) would be worse than none. Each language version is its own canonical address.
  const base = config.site.base_url
  const asked = view.url.searchParams.get(LANGUAGE_PARAM) === tr.lang ? tr.lang : null
  const canonical = base ? base + withLanguage(meta.path, asked) : null
  const description = summarize(meta.description)
  // hreflang alternates: absolute with site.base_url, as search engines want them; relative
  // otherwise, which a browser still resolves.
  const alternates = meta.noindex ? [] : [
    ...LANGUAGES.map((code) => ({ code, href: base + withLanguage(meta.path, code) })),
    { code: 'x-default', href: base + withLanguage(meta.path, null) },
  ]
  return html`<!doctype html>
<html lang="${tr.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
${meta.noindex ? html`<meta name="robots" content="noindex">` : canonical ? html`<link rel="canonical" href="${canonical}">` : ''}
${alternates.map((a) => html`<link rel="alternate" hreflang="${a.code}" href="${a.href}">
`)}<meta property="og:type" content="website">
<meta property="og:site_name" content="${site}">
<meta property="og:title" content="${meta.title}">
<meta property="og:description" content="${description}">
<meta property="og:locale" content="${tr.locale.replace('-', '_')}">
${canonical ? html`<meta property="og:url" content="${canonical}">` : ''}
<meta name="twitter:card" content="summary">
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/site.css">
${(meta.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}">`)}
${meta.scripts?.length ? html`<script type="application/json" id="vl-i18n">${raw(catalogJson(tr.lang, SCRIPT_MESSAGES))}</script>` : ''}
${(meta.scripts ?? []).map((src) => html`<script type="module" src="${src}"></script>`)}
${(meta.moduleScripts ?? []).map((src) => html`<script type="module" src="${src}"></script>`)}
</head>
<body>
<a class="skip-link" href="#main">${tr.t('layout.skip')}</a>
<header class="site-header">
  <div class="container site-header-inner">
    <a class="site-name" href="/">${site}</a>
    <nav class="site-nav" aria-label="${tr.t('layout.nav')}">
      <a href="/">${tr.t('layout.ranking')}</a>
      <a href="/dashboard">${tr.t('layout.listServer')}</a>
    </nav>
    ${renderSwitcher(view)}
  </div>
</header>
<main id="main" class="container">
${body}
</main>
<footer class="site-footer">
  <div class="container">${tr.t('layout.footer')}</div>
</footer>
</body>
</html>
`.value
}

// Every public page leaves through here, with the pages' Content-Security-Policy: no page can be
// framed, nothing inline runs (src/http/security-headers.ts). Its language came from the cookie
// and Accept-Language: caches must keep one copy per value of those.
export function htmlResponse(view: PageView, page: string | Uint8Array<ArrayBuffer>, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(page, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-language': view.tr.lang, vary: LANGUAGE_VARY,
      'content-security-policy': publicPageCsp(view.config), 'x-frame-options': 'DENY', ...headers,
    },
  })
}

// A complete page for an error: the real status code, a plain explanation, a way back.
export function errorPage(view: PageView, status: number, title: string, message: string, headers: Record<string, string> = {}): Response {
  const { tr } = view
  const body = html`<section class="card narrow">
  <h1>${title}</h1>
  <p>${message}</p>
  <p><a class="button" href="/">${tr.t('errorPage.back')}</a></p>
</section>`
  return htmlResponse(view, renderLayout(view, { title, description: message, path: '/', noindex: true }, body), status, headers)
}

export const notFoundPage = (view: PageView, what = view.tr.t('errorPage.notFound.page')) =>
  errorPage(view, 404, view.tr.t('errorPage.notFound.title'), view.tr.t('errorPage.notFound.text', { what }))

const TITLES: Record<number, TextKey> = {
  400: 'errorPage.title.400', 403: 'errorPage.title.403', 413: 'errorPage.title.413', 429: 'errorPage.title.429',
}

// The links of a month navigation (the ranking's, a server page's): the month before (none
// before the first month written YYYY-MM) and, for a past month, the month after; `hrefOf` gives a
// month's address.
export function monthLinks(tr: Tr, month: string, isCurrent: boolean, hrefOf: (month: string) => string): Html {
  const before = shiftMonth(month, -1)
  const after = shiftMonth(month, 1)
  return html`${month === FIRST_MONTH ? '' : html`<a href="${hrefOf(before)}" rel="nofollow">← ${tr.month(before)}</a>`}
  ${isCurrent ? '' : html`<a href="${hrefOf(after)}">${tr.month(after)} →</a>`}`
}

// The error in the visitor's words (web/assets/translate.js, errorText), a sentence.
export function pageErrorText(tr: Tr, e: ApiError): string {
  const text = errorText(tr, { code: e.errorCode, field: e.field, reason: e.reason, message: e.message, retryAfter: Number(e.headers['Retry-After']) || null, allowed: e.allowed })
  return /[.!?…]$/.test(text) ? text : `${text}.`
}

// The page for a failure of a page route: the error's own status and message for the expected
// ones (bad parameter, unknown server, rate limit), a plain 500 for anything else (logged, never
// shown).
export function pageForError(view: PageView, log: Logger, e: unknown): Response {
  const { tr } = view
  if (e instanceof ApiError) {
    // An unknown address says so in the page's own words; an unknown server names itself.
    if (e.status === 404) return notFoundPage(view, e.field ? pageErrorText(tr, e) : undefined)
    return errorPage(view, e.status, tr.t(TITLES[e.status] ?? 'errorPage.title.other'), pageErrorText(tr, e), e.headers)
  }
  log.error('page failed', { url: loggableUrl(view.url.href), error: e })
  return errorPage(view, 500, tr.t('errorPage.title.other'), tr.t('errorPage.failed'))
}

// A page route's answer: the page `render` builds, or the page for its failure.
export async function renderPage(deps: { config: Config; log: Logger }, request: Request, render: (view: PageView) => Awaitable<string | Uint8Array<ArrayBuffer>>): Promise<Response> {
  const view = pageView(deps.config, request)
  try {
    return htmlResponse(view, await render(view))
  } catch (e) {
    return pageForError(view, deps.log, e)
  }
}
