import { Elysia } from 'elysia'
import { LANGUAGES } from './catalogs.ts'
import { LANGUAGE_COOKIE, withLanguage } from './negotiate.ts'

// The language switcher's one route: GET /language?set=fr&back=/serveur/x remembers the choice
// in a cookie (a year; no account needed) and sends the visitor back where they were. A link,
// so that it works without script; `back` must be a path of this site (never another host).

const YEAR_SECONDS = 365 * 24 * 3600

export const switchLanguageHref = (lang: string, back: string) =>
  `/language?${new URLSearchParams({ set: lang, back })}`

// "/x?y" of this site, without the ?lang= that would outrank the choice just made; anything else
// ("//evil.example", "https://…", "/\\evil") is the home page.
const sameSitePath = (back: string | null) => (back && /^\/(?![/\\])/.test(back) ? withLanguage(back, null) : '/')

// `siteUrl.secure`: behind https the cookie is Secure (src/http/site-url.ts).
export function languageRoutes(deps: { siteUrl: { readonly secure: boolean } }) {
  return new Elysia({ name: 'i18n.routes' })
    .get('/language', ({ query }) => {
      const lang = typeof query.set === 'string' && LANGUAGES.includes(query.set) ? query.set : null
      const headers = new Headers({ location: sameSitePath(typeof query.back === 'string' ? query.back : null), 'cache-control': 'no-store' })
      if (lang) {
        const secure = deps.siteUrl.secure ? '; Secure' : ''
        headers.set('set-cookie', `${LANGUAGE_COOKIE}=${lang}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax; HttpOnly${secure}`)
      }
      return new Response(null, { status: 303, headers })
    }, {
      detail: {
        summary: 'Language switcher',
        description: 'HTML pages. `set` (a language of the site: en, fr) is remembered in the `votelist_lang` cookie for a year; 303 to `back` (a path of this site, default /). An unknown language changes nothing.',
        tags: ['Pages'],
      },
    })
}
