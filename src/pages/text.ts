import { type CountKey, type Params, type TextKey, type Translator } from '../../web/assets/translate.js'
import { isolateText, translatorFor } from '../i18n/translate.ts'
import { Html, render, type Renderable } from './html.ts'

// A language's translator for the pages: messages also as escaped markup, their text escaped and
// their parameters rendered as html`` renders them (an Html parameter, such as a link, is placed
// as it is; a catalog never holds markup).
export type Tr = Translator & {
  html(key: TextKey, params?: Params): Html
  countHtml(key: CountKey, count: number, params?: Params): Html
}

const asHtml = (parts: unknown[]) => new Html(parts.map((p) => render(p as Renderable)).join(''))

// The text parameters of a message (a server's name, a month, a player's name) set apart from
// its words where their direction could run into them (src/i18n/translate.ts, isolateText).
const isolated = (params: Params): Params => {
  let out: Params | null = null
  for (const [k, v] of Object.entries(params)) {
    if (typeof v !== 'string') continue
    const text = isolateText(v)
    if (text !== v) (out ??= { ...params })[k] = text
  }
  return out ?? params
}

const made = new Map<string, Tr>()

export function pageText(lang: string): Tr {
  let tr = made.get(lang)
  if (!tr) {
    const base = translatorFor(lang)
    made.set(lang, tr = {
      ...base,
      t: (key: TextKey, params: Params = {}) => base.t(key, isolated(params)),
      n: (key: CountKey, count: number, params: Params = {}) => base.n(key, count, isolated(params)),
      parts: (key: TextKey, params: Params = {}) => base.parts(key, isolated(params)),
      countParts: (key: CountKey, count: number, params: Params = {}) => base.countParts(key, count, isolated(params)),
      html: (key: TextKey, params: Params = {}) => asHtml(base.parts(key, isolated(params))),
      countHtml: (key: CountKey, count: number, params: Params = {}) => asHtml(base.countParts(key, count, isolated(params))),
    })
  }
  return tr
}
