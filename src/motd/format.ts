// A MOTD as the game shows it, in a safe structured form: lines of styled text spans. It is read
// from legacy `§` formatting codes (Bedrock, the 1.6 ping, and text inside chat components) and
// from JSON chat components (the Java status `description`), stored with the status as JSON, and
// rendered to HTML by the pages (src/pages/motd.ts). It holds text and a bounded set of styles,
// never markup: a `§` code never survives parsing.
//
// Protocol facts followed here, as the game's client applies them:
// - `§` + one of 0-9 a-f sets a colour AND clears bold, italic, underline, strikethrough and
//   obfuscated; `§l` bold, `§o` italic, `§n` underline, `§m` strikethrough, `§k` obfuscated,
//   `§r` back to the style of the component the text belongs to; any other code is dropped.
// - `§x§R§R§G§G§B§B` (BungeeCord's form) is a hex colour.
// - Bedrock's client differs: a colour keeps the formats, `§g` and `§h`…`§v` are its own colours
//   (`§m`, `§n` included), and it has no `§x` form.
// - A component inherits its parent's style and overrides what it sets; `color` is a name of the
//   16 colours, `#rrggbb` (1.16+), or `reset`. A JSON array is its first element with the others
//   as that element's children. `translate` shows its `fallback` (1.19.4+) or the key itself.
// Obfuscated text is kept as plain text (the game scrambles it; a page has no reason to).

export interface MotdSpan {
  text: string
  color?: string // '#rrggbb', lower case; absent: the default (grey in the server list)
  bold?: true
  italic?: true
  underlined?: true
  strikethrough?: true
}
export type MotdLine = MotdSpan[]
export type Motd = MotdLine[]

type Style = Omit<MotdSpan, 'text'>
const FLAGS = ['bold', 'italic', 'underlined', 'strikethrough'] as const
const IS_FLAG: ReadonlySet<string> = new Set(FLAGS)

// The 16 named colours, in the order of their legacy codes 0-9 a-f.
export const NAMED_COLORS: Readonly<Record<string, string>> = {
  black: '#000000', dark_blue: '#0000aa', dark_green: '#00aa00', dark_aqua: '#00aaaa',
  dark_red: '#aa0000', dark_purple: '#aa00aa', gold: '#ffaa00', gray: '#aaaaaa',
  dark_gray: '#555555', blue: '#5555ff', green: '#55ff55', aqua: '#55ffff',
  red: '#ff5555', light_purple: '#ff55ff', yellow: '#ffff55', white: '#ffffff',
}
const LEGACY_COLORS = Object.values(NAMED_COLORS)
const HEX_DIGITS = '0123456789abcdef'
const LEGACY_FLAGS: Record<string, (typeof FLAGS)[number]> = { l: 'bold', o: 'italic', n: 'underlined', m: 'strikethrough' }
// Bedrock's own colours: §g minecoin gold and the material colours (1.19.80+, §v 1.21.50), where
// §m and §n are colours rather than strikethrough and underline.
const BEDROCK_COLORS: Readonly<Record<string, string>> = {
  g: '#ddd605', h: '#e3d4d1', i: '#cecaca', j: '#443a3b', m: '#971607', n: '#b4684d',
  p: '#deb12d', q: '#47a036', s: '#2cbaa8', t: '#21497b', u: '#9a5cc6', v: '#eb7114',
}
export const HEX_COLOR = /^#[0-9a-f]{6}$/

// Bounds: a MOTD is two short lines in the game; these keep a hostile answer small.
export const MAX_TEXT = 1024
const MAX_DEPTH = 32
const MAX_SPANS = 256

// Control characters other than the line break never reach a page.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g

const sameStyle = (a: Style, b: Style) => a.color === b.color && FLAGS.every((f) => a[f] === b[f])

class MotdBuilder {
  private lines: MotdLine[] = [[]]
  private length = 0
  private spans = 0

  get full() {
    return this.length >= MAX_TEXT || this.spans >= MAX_SPANS
  }

  add(text: string, style: Style) {
    const pieces = text.replace(CONTROL, '').split('\n')
    pieces.forEach((piece, i) => {
      // A line break counts as one character of MAX_TEXT: a MOTD of line breaks alone is bounded too.
      if (i > 0) {
        if (this.length >= MAX_TEXT) return
        this.length++
        this.lines.push([])
      }
      const room = MAX_TEXT - this.length
      const kept = piece.slice(0, Math.max(0, room))
      if (!kept) return
      this.length += kept.length
      const line = this.lines[this.lines.length - 1]
      const last = line[line.length - 1]
      if (last && sameStyle(last, style)) last.text += kept
      else if (this.spans < MAX_SPANS) {
        line.push({ text: kept, ...style })
        this.spans++
      }
    })
  }

  // Lines trimmed at both ends and empty lines at the start and end dropped, as the plain text
  // always was.
  finish(): Motd {
    const lines = this.lines.map((line) => {
      const spans = line.map((s) => ({ ...s }))
      if (spans.length) spans[0].text = spans[0].text.trimStart()
      if (spans.length) spans[spans.length - 1].text = spans[spans.length - 1].text.trimEnd()
      const kept = spans.filter((s) => s.text !== '')
      // A span left blank by the trim at one end may have hidden text at the other.
      if (kept.length) kept[0].text = kept[0].text.trimStart()
      if (kept.length) kept[kept.length - 1].text = kept[kept.length - 1].text.trimEnd()
      return kept.filter((s) => s.text !== '')
    })
    while (lines.length && !lines[0].length) lines.shift()
    while (lines.length && !lines[lines.length - 1].length) lines.pop()
    return lines
  }
}

// A style with only what is set: no `undefined` or `false` members, so spans compare and store simply.
function cleanStyle(s: { color?: string } & Partial<Record<(typeof FLAGS)[number], boolean | undefined>>): Style {
  const out: Style = {}
  if (s.color) out.color = s.color
  for (const f of FLAGS) if (s[f]) out[f] = true
  return out
}

// Text with legacy codes, starting from (and `§r` returning to) the style `base`. `bedrock`: as
// Bedrock's client reads them, with its colours, a colour keeping the formats, and no §x form.
function addLegacy(b: MotdBuilder, text: string, base: Style, bedrock = false) {
  let style = base
  let run = ''
  const flush = () => {
    if (run) b.add(run, style)
    run = ''
  }
  for (let i = 0; i < text.length;) {
    const ch = text[i]
    if (ch !== '§') {
      run += ch
      i++
      continue
    }
    flush()
    const next = text.codePointAt(i + 1)
    if (next === undefined) break
    const code = String.fromCodePoint(next).toLowerCase()
    const step = 1 + String.fromCodePoint(next).length
    const hex = code === 'x' && !bedrock ? /^(?:§[0-9a-fA-F]){6}/.exec(text.slice(i + 2)) : null
    if (hex) {
      style = { color: `#${hex[0].replace(/§/g, '').toLowerCase()}` }
      i += 2 + 12
      continue
    }
    const color = code.length === 1 && HEX_DIGITS.includes(code) ? LEGACY_COLORS[HEX_DIGITS.indexOf(code)]
      : bedrock && Object.hasOwn(BEDROCK_COLORS, code) ? BEDROCK_COLORS[code] : undefined
    if (color) style = bedrock ? { ...style, color } : { color }
    else if (code === 'r') style = base
    else if (LEGACY_FLAGS[code]) style = cleanStyle({ ...style, [LEGACY_FLAGS[code]]: true })
    i += step
  }
  flush()
}

function colorOf(value: unknown, inherited: string | undefined): string | undefined {
  if (typeof value !== 'string') return inherited
  const v = value.toLowerCase()
  if (v === 'reset') return undefined
  // Own keys only: a colour named "__proto__" or "constructor" is no colour.
  if (Object.hasOwn(NAMED_COLORS, v)) return NAMED_COLORS[v]
  return HEX_COLOR.test(v) ? v : inherited
}

function styleOf(o: Record<string, unknown>, parent: Style): Style {
  const flag = (f: (typeof FLAGS)[number]) => (typeof o[f] === 'boolean' ? (o[f] as boolean) : parent[f] === true)
  return cleanStyle({ color: colorOf(o.color, parent.color), bold: flag('bold'), italic: flag('italic'), underlined: flag('underlined'), strikethrough: flag('strikethrough') })
}

function contentOf(o: Record<string, unknown>): string {
  for (const key of ['text', 'fallback', 'translate', 'keybind']) {
    const v = o[key]
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v)
  }
  return ''
}

function walk(b: MotdBuilder, c: unknown, parent: Style, depth: number) {
  if (depth > MAX_DEPTH || b.full) return
  if (typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean') {
    addLegacy(b, String(c), parent)
  } else if (Array.isArray(c)) {
    if (!c.length) return
    const [first, ...rest] = c
    const style = first && typeof first === 'object' && !Array.isArray(first) ? styleOf(first as Record<string, unknown>, parent) : parent
    walk(b, first, parent, depth + 1)
    for (const x of rest) walk(b, x, style, depth + 1)
  } else if (c && typeof c === 'object') {
    const o = c as Record<string, unknown>
    const style = styleOf(o, parent)
    addLegacy(b, contentOf(o), style)
    if (Array.isArray(o.extra)) for (const x of o.extra) walk(b, x, style, depth + 1)
  }
}

// A Java status `description`: a string with legacy codes or a chat component.
export function motdFromChat(description: unknown): Motd {
  const b = new MotdBuilder()
  walk(b, description, {}, 0)
  return b.finish()
}

// Lines with legacy codes (the 1.6 ping's MOTD), each starting from the default style.
export const motdFromLegacy = (...lines: string[]): Motd => linesOf(lines, false)
// Bedrock's MOTD and level name, read as its client reads their codes.
export const motdFromBedrock = (...lines: string[]): Motd => linesOf(lines, true)

function linesOf(lines: string[], bedrock: boolean): Motd {
  const b = new MotdBuilder()
  lines.forEach((line, i) => {
    if (i > 0) b.add('\n', {})
    addLegacy(b, line, {}, bedrock)
  })
  return b.finish()
}

// The plain text of a MOTD, as the public record and the vote notifications show it.
export const motdText = (motd: Motd): string => motd.map((line) => line.map((s) => s.text).join('')).join('\n')

// A name or version string as plain text: formatting codes and control characters removed,
// trimmed.
export function stripFormatting(text: string): string {
  return motdText(motdFromLegacy(text))
}

// The stored JSON of a MOTD, read back strictly: anything that is not exactly the form written
// (a damaged row, an edited database) is no MOTD rather than something a page would trust.
export function readMotd(json: string | null): Motd | null {
  if (json === null) return null
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    return null
  }
  if (!Array.isArray(value)) return null
  for (const line of value) {
    if (!Array.isArray(line)) return null
    for (const span of line) {
      if (!span || typeof span !== 'object' || typeof span.text !== 'string') return null
      for (const key in span) {
        const v = span[key]
        if (key === 'text') continue
        if (key === 'color' ? !(typeof v === 'string' && HEX_COLOR.test(v)) : !(v === true && IS_FLAG.has(key))) return null
      }
    }
  }
  return value as Motd
}
