import { LANGUAGES } from './catalogs.ts'

// Which language a request is answered in, first match wins:
//   1. `?lang=fr` in the address: the language versions of a page have their own URLs (the
//      hreflang alternates), so a link or a search engine gets the version it names;
//   2. the visitor's choice in the switcher, remembered in the `votelist_lang` cookie;
//   3. the browser's Accept-Language, by its q-values;
//   4. site.language.
// A language the site has no catalog for is skipped at every step.

export const LANGUAGE_COOKIE = 'votelist_lang'
export const LANGUAGE_PARAM = 'lang'

const known = (tag: string | null | undefined): string | null => {
  if (!tag) return null
  const t = tag.trim().toLowerCase()
  // "fr-CA" is French for a site that has "fr"; an exact "pt-br" catalog would win over "pt".
  return LANGUAGES.find((l) => l.toLowerCase() === t) ?? LANGUAGES.find((l) => l.toLowerCase() === t.split('-')[0]) ?? null
}

// A value that is not percent-encoded UTF-8 (set by another application of the same host, or
// mangled on the way) is no value: every page reads this cookie, so it must not fail them.
function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim())
      } catch {
        return null
      }
    }
  }
  return null
}

// RFC 9110 §12.5.4: `fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5`. A range with q=0 is refused; `*`
// stands for any language, which is the site's own.
export function fromAcceptLanguage(header: string | null, siteLanguage: string): string | null {
  if (!header) return null
  const ranges = header.split(',').map((entry, i) => {
    const [tag, ...params] = entry.split(';').map((s) => s.trim())
    const q = params.find((p) => /^q=/i.test(p))
    const weight = q ? Number(q.slice(2)) : 1
    return { tag, weight: Number.isFinite(weight) ? weight : 0, i }
  }).filter((r) => r.tag && r.weight > 0).sort((a, b) => b.weight - a.weight || a.i - b.i)
  for (const r of ranges) {
    const lang = r.tag === '*' ? siteLanguage : known(r.tag)
    if (lang) return lang
  }
  return null
}

export function chooseLanguage(request: Request, siteLanguage: string): string {
  const param = new URL(request.url).searchParams.get(LANGUAGE_PARAM)
  return known(param) ?? known(cookieValue(request.headers.get('cookie'), LANGUAGE_COOKIE))
    ?? fromAcceptLanguage(request.headers.get('accept-language'), siteLanguage) ?? siteLanguage
}

// A same-site path and query with `?lang=` set (or removed, for null): the language versions of a
// page are its address with ?lang=<code>; without it the site picks the language (x-default).
export function withLanguage(path: string, lang: string | null): string {
  const u = new URL(path, 'http://site')
  if (lang) u.searchParams.set(LANGUAGE_PARAM, lang)
  else u.searchParams.delete(LANGUAGE_PARAM)
  return u.pathname + u.search
}

// The answer depends on these request headers wherever chooseLanguage() picked its language.
export const LANGUAGE_VARY = 'Accept-Language, Cookie'
