import { tr } from './i18n.js'

// Building the dashboard's DOM. Text always goes in as text nodes (never as markup), so nothing
// an owner or a player typed can become HTML: no string is ever parsed as markup here.

const PROPERTIES = new Set(['value', 'checked', 'selected', 'disabled', 'hidden', 'open'])

/** @import { Child } from '../types/dom' */

/**
 * Attributes; `class`, `dataset`, `on…` listeners and the PROPERTIES above are set as such.
 * @typedef {Record<string, unknown>} Props
 */

/**
 * h('a', { href: '/x', class: 'button', onClick: fn }, 'text', child, [more]) → an element.
 * Attributes with null/undefined/false are left out; `true` writes an empty attribute.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props | null} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag)
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue
    if (key === 'class') el.className = String(value)
    else if (key === 'dataset') Object.assign(el.dataset, value)
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), /** @type {EventListener} */ (value))
    else if (PROPERTIES.has(key)) Object.assign(el, { [key]: value })
    else if (key === 'href' || key === 'src') el.setAttribute(key, safeUrl(String(value)))
    else el.setAttribute(key, value === true ? '' : String(value))
  }
  append(el, children)
  return el
}

/**
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function append(el, ...children) {
  for (const child of children) {
    if (Array.isArray(child)) append(el, ...child)
    else if (child !== null && child !== undefined && child !== false) el.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
  return el
}

/**
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function replace(el, ...children) {
  el.replaceChildren()
  return append(el, ...children)
}

// Links are same-site paths or http(s) addresses (a server's website); anything else (a
// javascript: URL) becomes a harmless '#'.
/** @param {string} url */
export function safeUrl(url) {
  const text = String(url)
  if (text.startsWith('/') && !text.startsWith('//')) return text
  try {
    const parsed = new URL(text)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : '#'
  } catch {
    return '#'
  }
}

// Screen readers hear this once, politely (the page keeps its focus).
/** @param {string} message */
export function announce(message) {
  const region = document.getElementById('announcer')
  if (!region) return
  region.textContent = ''
  setTimeout(() => { region.textContent = message }, 50)
}

// An action takes the focus away: its button is disabled while it runs (a disabled element drops
// the focus to the page's body), and its section or page may be drawn again after it. Called
// before the action, holdFocus() notes where the focus is (inside `within`); the function it
// answers, called after, brings a keyboard or screen-reader user back if the focus was lost
// meanwhile: to the same element if it is still shown, else to the heading of the section it was
// in, drawn anew (found by its words; tabindex -1 lets it take the focus). A focus the action
// placed itself (a field's error, a list's own button, a new page's heading) is left alone.
/** @param {Element} within */
export function holdFocus(within) {
  const at = document.activeElement
  if (!(at instanceof HTMLElement) || !within.contains(at)) return () => {}
  const heading = at.closest('section')?.querySelector('h2')?.textContent ?? null
  return () => {
    const now = document.activeElement
    if (now && now !== document.body) return
    if (at.isConnected && !at.matches(':disabled')) return at.focus()
    const again = heading === null ? null : [...document.querySelectorAll('section > h2')].find((h2) => h2.textContent === heading)
    if (!(again instanceof HTMLElement)) return
    if (!again.hasAttribute('tabindex')) again.tabIndex = -1
    again.focus()
  }
}

let uid = 0
export const newId = (/** @type {string} */ prefix) => `${prefix}-${++uid}`

// Times and numbers in the visitor's language, through the site's one set of formats
// (web/assets/translate.js): UTC, written out with " UTC".
export const formatTime = (/** @type {string} */ iso) => tr.dateTime(iso, { seconds: true })
export const formatDay = (/** @type {string} */ iso) => tr.date(iso)
export const formatNumber = (/** @type {number} */ n) => tr.number(n)

// "in 2 min", "5 sec ago": how far a time is from now, in the largest unit that fits.
export const relativeTime = (/** @type {string} */ iso, now = Date.now()) => tr.relative(iso, now)

// <time> with the UTC time written out (`short`: without the year, for tables), optionally with
// its distance from now; the full time is its title.
/**
 * @param {string | null} iso
 * @param {{ short?: boolean, withRelative?: boolean }} [options]
 */
export function timeElement(iso, { short = false, withRelative = false } = {}) {
  if (!iso) return h('span', { class: 'muted' }, '—')
  const written = tr.dateTime(iso, { short, seconds: true })
  return h('time', { datetime: iso, title: formatTime(iso) }, withRelative ? `${written} (${relativeTime(iso)})` : written)
}

export const formatDuration = (/** @type {number | null | undefined} */ ms) => (ms === null || ms === undefined ? '—' : tr.duration(ms))
