import { translator, type CountKey, type Params, type TextKey, type Translator } from '../../web/assets/translate.js'
import { Html, render, type Renderable } from '../pages/html.ts'
import { catalogOf, catalogs } from './catalogs.ts'

// The server's side of the catalogs: a language's translator for the pages (times in UTC), with
// messages as escaped markup, and the part of a catalog a page hands to its scripts.

export type Tr = Translator & {
  // The message as markup: its text escaped, its parameters rendered as html`` renders them
  // (an Html parameter, such as a link, is placed as it is).
  html(key: TextKey, params?: Params): Html
  countHtml(key: CountKey, count: number, params?: Params): Html
}

const asHtml = (parts: unknown[]) => new Html(parts.map((p) => render(p as Renderable)).join(''))

const made = new Map<string, Tr>()

export function translatorFor(lang: string): Tr {
  let tr = made.get(lang)
  if (!tr) {
    const base = translator(catalogs.has(lang) ? lang : 'en', catalogOf(lang), 'UTC')
    tr = Object.assign(base, {
      html: (key: TextKey, params: Params = {}) => asHtml(base.parts(key, params)),
      countHtml: (key: CountKey, count: number, params: Params = {}) => asHtml(base.countParts(key, count, params)),
    })
    made.set(lang, tr)
  }
  return tr
}

// What a page's scripts read (web/assets/translate.js, pageTranslator): the language, its locale
// and the messages under these prefixes, as JSON for a <script type="application/json"> block.
// A data block is never run, so the pages' policy (no inline script) stands; "<" is escaped so
// that no message can close the block.
export function catalogJson(lang: string, prefixes: readonly string[]): string {
  const c = catalogOf(lang)
  const messages = Object.fromEntries(Object.entries(c.messages).filter(([k]) => prefixes.some((p) => k.startsWith(p))))
  return JSON.stringify({ lang, name: c.name, locale: c.locale, messages }).replace(/</g, '\\u003c')
}
