import { isolateParams, type CountKey, type Params, type TextKey, type Translator } from '../../web/assets/translate.js'
import { translatorFor } from '../i18n/translate.ts'
import { Html, render, type Renderable } from './html.ts'

// A language's translator for the pages: messages also as escaped markup, their text escaped and
// their parameters rendered as html`` renders them (an Html parameter, such as a link, is placed
// as it is; a catalog never holds markup). Text parameters (a server's name, a player's name) are
// set apart from the message's words by direction (isolateParams).
export type Tr = Translator & {
  html(key: TextKey, params?: Params): Html
  countHtml(key: CountKey, count: number, params?: Params): Html
}

const asHtml = (parts: unknown[]) => new Html(parts.map((p) => render(p as Renderable)).join(''))

const made = new Map<string, Tr>()

export function pageText(lang: string): Tr {
  let tr = made.get(lang)
  if (!tr) {
    const base = translatorFor(lang)
    made.set(lang, tr = {
      ...base,
      t: (key: TextKey, params: Params = {}) => base.t(key, isolateParams(params)),
      n: (key: CountKey, count: number, params: Params = {}) => base.n(key, count, isolateParams(params)),
      parts: (key: TextKey, params: Params = {}) => base.parts(key, isolateParams(params)),
      countParts: (key: CountKey, count: number, params: Params = {}) => base.countParts(key, count, isolateParams(params)),
      html: (key: TextKey, params: Params = {}) => asHtml(base.parts(key, isolateParams(params))),
      countHtml: (key: CountKey, count: number, params: Params = {}) => asHtml(base.countParts(key, count, isolateParams(params))),
    })
  }
  return tr
}
