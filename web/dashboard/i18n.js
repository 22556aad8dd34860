// The dashboard's words and formats: the catalog the site wrote into the page for the visitor's
// language (src/dashboard/routes.ts), read once. Times are UTC, as the site writes them. Text
// parameters (a server's name, an e-mail address) are set apart from the words around them by
// direction, as on the pages (isolateParams).
import { errorText, isolateParams, pageTranslator } from '../translate.js'
import { ApiError } from './api.js'
/** @import { Child } from '../types/dom' */
/** @import { CountKey, Params, TextKey } from '../translate.js' */

export const tr = pageTranslator('UTC')

/**
 * @param {TextKey} key
 * @param {Params} [params]
 */
export const t = (key, params = {}) => tr.t(key, isolateParams(params))

/**
 * @param {CountKey} key
 * @param {number} count
 * @param {Params} [params]
 */
export const tn = (key, count, params = {}) => tr.n(key, count, isolateParams(params))

// A message with elements in it (a link, a <code>), as children for h().
/**
 * @param {unknown[]} pieces
 * @returns {Child[]}
 */
const children = (pieces) => pieces.map((p) => (p instanceof Node || Array.isArray(p) ? /** @type {Child} */ (p) : String(p)))

/**
 * @param {TextKey} key
 * @param {Params} [params]
 */
export const tp = (key, params = {}) => children(tr.parts(key, isolateParams(params)))

/**
 * @param {CountKey} key
 * @param {number} count
 * @param {Params} [params]
 */
export const tnp = (key, count, params = {}) => children(tr.countParts(key, count, isolateParams(params)))

// An API failure as a sentence in the visitor's language (web/assets/translate.js, errorText);
// `scope` names the form, where a code means something more precise ("login", "reset").
/**
 * @param {unknown} error
 * @param {string} [scope]
 */
export function errorSentence(error, scope) {
  if (!(error instanceof ApiError)) return t('dash.error.unexpected')
  return errorText(tr, { code: error.code, field: error.field, reason: error.reason, message: error.message, retryAfter: error.retryAfter }, scope)
}
