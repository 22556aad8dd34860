// HTML that is escaped by construction. `html` is a tagged template: every interpolated value is
// escaped unless it already is an `Html` (another template's result, or text explicitly trusted
// with `raw()`), so templates nest freely and a value from the database can never become markup.
//
//   html`<p class="x" title="${userText}">${userText}</p>`   // both escaped
//   html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`  // arrays and nesting compose
//
// Rules the escaping relies on, checked where they can be:
// - Attribute values are always quoted ("…" or '…'): both quotes are escaped, so a value cannot
//   leave its attribute. An interpolation right after `=` (an unquoted attribute) throws.
// - Never interpolate into <script> or <style> bodies (escaping does not make JS or CSS safe):
//   hand data to scripts through data-* attributes.
// - A user-supplied URL goes through `safeUrl()` before it lands in href/src.

export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value
  }
}

// Text that is markup already: only for constants and trusted, generated strings.
export const raw = (markup: string) => new Html(markup)

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' }
const SPECIAL = /[&<>"'`]/g
const HAS_SPECIAL = /[&<>"'`]/

// Most text on a page (names, slugs, numbers) has nothing to escape: it is returned as it is,
// without the replace's callback per match (the ranking page escapes over a thousand values).
export const escapeHtml = (text: string) => (HAS_SPECIAL.test(text) ? text.replace(SPECIAL, (c) => ENTITIES[c]) : text)

export type Renderable = Html | string | number | boolean | null | undefined | readonly Renderable[]

export function render(value: Renderable): string {
  if (typeof value === 'string') return escapeHtml(value)
  if (value instanceof Html) return value.value
  if (typeof value === 'number') return String(value)
  if (value === null || value === undefined || value === false || value === true) return ''
  if (Array.isArray(value)) {
    let out = ''
    for (const v of value) out += render(v)
    return out
  }
  return escapeHtml(String(value))
}

// Call sites are checked once: a TemplateStringsArray is the same object on every call.
const checked = new WeakSet<TemplateStringsArray>()
const UNQUOTED_ATTRIBUTE = /=\s*$/

export function html(strings: TemplateStringsArray, ...values: Renderable[]): Html {
  if (!checked.has(strings)) {
    strings.slice(0, -1).forEach((s, i) => {
      if (UNQUOTED_ATTRIBUTE.test(s)) throw new Error(`html: interpolation ${i} is an unquoted attribute value; quote it`)
    })
    checked.add(strings)
  }
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
  return new Html(out)
}

// An absolute http(s) URL as given, or null: keeps javascript:, data: and other schemes out of
// href attributes.
export function safeUrl(url: string): string | null {
  try {
    const u = new URL(url)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null
  } catch {
    return null
  }
}
