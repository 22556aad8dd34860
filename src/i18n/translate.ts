import { translator, type Translator } from '../../web/assets/translate.js'
import { catalogOf, catalogs, REFERENCE_LANGUAGE } from './catalogs.ts'

// The server's side of the catalogs: a language's translator (times in UTC, as the site writes
// them), and the part of a catalog a page hands to its scripts. Pages add markup on top
// (src/pages/text.ts).

const made = new Map<string, Translator>()

export function translatorFor(lang: string): Translator {
  let tr = made.get(lang)
  if (!tr) made.set(lang, tr = translator(catalogs().has(lang) ? lang : REFERENCE_LANGUAGE, catalogOf(lang), 'UTC'))
  return tr
}

// What a page's scripts read (web/assets/translate.js, pageTranslator): the language, its locale
// and the messages under these prefixes, as JSON for a <script type="application/json"> block.
// A data block is never run, so the pages' policy (no inline script) stands; "<" is escaped so
// that no message can close the block. Made once per language and prefixes: the catalogs do not
// change while the site runs, and filtering one is a tenth of a millisecond a page.
const blocks = new Map<string, string>()

export function catalogJson(lang: string, prefixes: readonly string[]): string {
  const key = `${lang} ${prefixes.join(' ')}`
  let block = blocks.get(key)
  if (block === undefined) {
    const c = catalogOf(lang)
    const messages = Object.fromEntries(Object.entries(c.messages).filter(([k]) => prefixes.some((p) => k.startsWith(p))))
    blocks.set(key, block = JSON.stringify({ lang, name: c.name, locale: c.locale, messages }).replace(/</g, '\\u003c'))
  }
  return block
}

// Text of the site's users (a server's name) inside the site's own sentences, titles and lines:
// a name holding right-to-left letters or direction marks (an override it never ends, a stray
// isolate closer) is set apart between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL
// ISOLATE, so that it is drawn as one piece and the words around it keep their order. A closer
// the name did not open is left out (it would end the isolate early), and a line or paragraph
// separator, which would end it too, is a space. Other text is returned as it is.
const BIDI_SENSITIVE = /[\u0590-\u08ff\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u

export function isolateText(text: string): string {
  if (!BIDI_SENSITIVE.test(text)) return text
  let open = 0
  const inner = text.replace(/[\u2028\u2029\u2066-\u2069]/g, (c) => {
    if (c === '\u2028' || c === '\u2029') return ' '
    if (c !== '\u2069') open++
    else if (open === 0) return ''
    else open--
    return c
  })
  return `\u2068${inner}\u2069`
}
