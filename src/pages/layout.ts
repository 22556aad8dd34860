import type { Config } from '../config/load.ts'
import type { Awaitable } from '../db/store.ts'
import { ApiError } from '../http/errors.ts'
import { publicPageCsp } from '../http/security-headers.ts'
import type { Logger } from '../log.ts'
import { html, type Html } from './html.ts'

// The shell of every public page: head metadata (title, description, canonical, Open Graph),
// the site header and footer, and /assets/site.css. Pages work without JavaScript; scripts only
// enhance them and are loaded deferred from /assets (nothing is requested from another host).

export interface PageMeta {
  title: string // the page's own title; the site name is appended
  description: string
  path: string // path and query of the canonical address, e.g. "/serveur/emerald-valley"
  noindex?: boolean
  styles?: string[] // same-site stylesheets besides /assets/site.css
  scripts?: string[] // same-site script URLs, loaded with defer
  moduleScripts?: string[] // same-site ES modules
}

const DESCRIPTION_MAX = 160

// Meta descriptions are cut at a word near 160 characters, as search engines show them.
export function summarize(text: string, max = DESCRIPTION_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max - 1)
  return `${cut.slice(0, cut.lastIndexOf(' ') > max / 2 ? cut.lastIndexOf(' ') : cut.length)}…`
}

export function renderLayout(config: Config, meta: PageMeta, body: Html): string {
  const site = config.site.name
  const title = meta.title === site ? site : `${meta.title} · ${site}`
  // Without site.base_url the site does not know its public address: a guessed canonical address
  // (localhost) would be worse than none.
  const canonical = config.site.base_url ? config.site.base_url + meta.path : null
  const description = summarize(meta.description)
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
${meta.noindex ? html`<meta name="robots" content="noindex">` : canonical ? html`<link rel="canonical" href="${canonical}">` : ''}
<meta property="og:type" content="website">
<meta property="og:site_name" content="${site}">
<meta property="og:title" content="${meta.title}">
<meta property="og:description" content="${description}">
${canonical ? html`<meta property="og:url" content="${canonical}">` : ''}
<meta name="twitter:card" content="summary">
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/site.css">
${(meta.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}">`)}
${(meta.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
${(meta.moduleScripts ?? []).map((src) => html`<script type="module" src="${src}"></script>`)}
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
  <div class="container site-header-inner">
    <a class="site-name" href="/">${site}</a>
    <nav class="site-nav" aria-label="Site">
      <a href="/">Ranking</a>
      <a href="/dashboard">List your server</a>
    </nav>
  </div>
</header>
<main id="main" class="container">
${body}
</main>
<footer class="site-footer">
  <div class="container">All times are UTC. Rankings restart on the 1st of every month. Powered by votelist.</div>
</footer>
</body>
</html>
`.value
}

// Every public page leaves through here, with the pages' Content-Security-Policy: no page can be
// framed, nothing inline runs (src/http/security-headers.ts).
export function htmlResponse(config: Config, page: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(page, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache',
      'content-security-policy': publicPageCsp(config), 'x-frame-options': 'DENY', ...headers,
    },
  })
}

// A complete page for an error: the real status code, a plain explanation, a way back.
export function errorPage(config: Config, status: number, title: string, message: string, headers: Record<string, string> = {}): Response {
  const body = html`<section class="card narrow">
  <h1>${title}</h1>
  <p>${message}</p>
  <p><a class="button" href="/">Back to the ranking</a></p>
</section>`
  return htmlResponse(config, renderLayout(config, { title, description: message, path: '/', noindex: true }, body), status, headers)
}

export const notFoundPage = (config: Config, what = 'This page does not exist.') =>
  errorPage(config, 404, 'Page not found', `${what} It may have been removed, or the address may be mistyped.`)

// The page for a failure of a page route: the error's own status and message for the expected
// ones (bad parameter, unknown server, rate limit), a plain 500 for anything else (logged, never
// shown).
export function pageForError(config: Config, log: Logger, e: unknown, url: string): Response {
  if (e instanceof ApiError) {
    if (e.status === 404) return notFoundPage(config, e.message.charAt(0).toUpperCase() + e.message.slice(1) + '.')
    const title = e.status === 400 ? 'This address has a mistake' : e.status === 429 ? 'Slow down' : e.status === 403 ? 'Not allowed'
      : e.status === 413 ? 'Too much data' : 'Something went wrong'
    return errorPage(config, e.status, title, e.message, e.headers)
  }
  log.error('page failed', { url, error: e })
  return errorPage(config, 500, 'Something went wrong', 'The page could not be shown. Please try again in a moment.')
}

// A page route's answer: the page `render` builds, or the page for its failure.
export async function renderPage(deps: { config: Config; log: Logger }, url: string, render: () => Awaitable<string>): Promise<Response> {
  try {
    return htmlResponse(deps.config, await render())
  } catch (e) {
    return pageForError(deps.config, deps.log, e, url)
  }
}
