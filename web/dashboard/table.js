// The dashboard's tables: a table that turns into one card per row when it does not fit, its
// header row, and cells that name their column for that card view.
import { h } from './dom.js'
/** @import { Child } from '../types/dom' */

const NARROW = window.matchMedia('(max-width: 47.99rem)')

// A table that stays a table while it fits its box and becomes one card per row when it does
// not (a phone, a long error text): never a page that scrolls sideways. Call `refit()` after
// changing its rows.
/** @param {HTMLTableElement} table */
export function fittedTable(table) {
  const box = h('div', { class: 'table-fit' }, table)
  let width = -1
  const refit = () => {
    table.classList.remove('as-cards')
    if (NARROW.matches || table.scrollWidth > box.clientWidth + 1) table.classList.add('as-cards')
  }
  // Only a change of width matters (a height change is the table's own doing).
  new ResizeObserver(() => {
    if (box.clientWidth === width) return
    width = box.clientWidth
    refit()
  }).observe(box)
  return Object.assign(box, { refit })
}

// A fitted table with its caption (for screen readers) and column headers; a header given as
// [label, true] is a numeric column (right-aligned). `tbody` stays the caller's, to redraw rows.
/**
 * @param {string} caption
 * @param {Array<string | [string, boolean]>} headers
 * @param {HTMLTableSectionElement} tbody
 */
export function dataTable(caption, headers, tbody, className = 'table') {
  return fittedTable(h('table', { class: className },
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', null, h('tr', null, headers.map((header) => {
      const [label, numeric] = typeof header === 'string' ? [header, false] : header
      return h('th', { scope: 'col', class: numeric ? 'num' : null }, label)
    }))),
    tbody))
}

// A cell that names its column when the table shows its rows as cards (phones); its content is
// one element, so that the card's label and value stay side by side.
/**
 * @param {string} label
 * @param {Child} content
 * @param {Record<string, unknown>} [extra] more attributes of the cell
 */
export const cell = (label, content, extra = {}) =>
  h('td', { 'data-label': label, ...extra }, content === null || content === undefined ? null : h('div', { class: 'cell-value' }, content))
