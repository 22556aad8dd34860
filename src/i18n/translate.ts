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
