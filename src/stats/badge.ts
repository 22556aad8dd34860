import { isolateText, type Translator as Tr } from '../../web/assets/translate.js'
import { AVERAGE_WIDTH, FIRST_CODE_POINT, UNITS_PER_EM, WIDE_WIDTH, WIDTHS } from './glyph-widths.ts'

// The "Vote for us" badge: a two-part SVG label, the server's name on the left and the call to vote
// with the live rank on the right. Widths come from the glyph table so a long name gets a longer
// badge instead of overflowing; each text run also carries textLength, so whatever font the
// viewer has, the text is drawn exactly into its computed box.

export const BADGE_THEMES = ['light', 'dark'] as const
export type BadgeTheme = (typeof BADGE_THEMES)[number]

const FONT_SIZE = 11
const FONT_FAMILY = 'DejaVu Sans,Verdana,Geneva,sans-serif'
const PADDING = 7
const HEIGHT = 20
// Names wider than this are cut and end with an ellipsis.
const MAX_NAME_WIDTH = 220

const COLORS: Record<BadgeTheme, { nameBg: string; nameFg: string; voteBg: string; voteFg: string; shadow: string }> = {
  light: { nameBg: '#555', nameFg: '#fff', voteBg: '#2e7d32', voteFg: '#fff', shadow: '#010101' },
  dark: { nameBg: '#1f2430', nameFg: '#e6e9ef', voteBg: '#43a047', voteFg: '#0b1a0c', shadow: '#000' },
}

const isWide = (cp: number) =>
  (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
  (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
  (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) || (cp >= 0x20000 && cp <= 0x3fffd)
const isCombining = (cp: number) => (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f)

function advance(cp: number): number {
  const i = cp - FIRST_CODE_POINT
  if (i >= 0 && i < WIDTHS.length) return WIDTHS[i]
  if (isCombining(cp)) return 0
  return isWide(cp) ? WIDE_WIDTH : AVERAGE_WIDTH
}

// Width in px of `text` at the badge's font size.
export function textWidth(text: string, fontSize = FONT_SIZE): number {
  let units = 0
  for (const ch of text) units += advance(ch.codePointAt(0)!)
  return (units * fontSize) / UNITS_PER_EM
}

// XML 1.0 forbids most control characters (even escaped) and lone surrogates; names are owner
// input, so those are dropped before escaping the five markup characters.
const dropInvalidXml = (text: string) => text.replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
export function xmlText(text: string): string {
  return dropInvalidXml(text)
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

function fitName(name: string): string {
  const clean = dropInvalidXml(name).replace(/\s+/g, ' ').trim()
  if (textWidth(clean) <= MAX_NAME_WIDTH) return clean
  const chars = [...clean]
  while (chars.length && textWidth(chars.join('') + '…') > MAX_NAME_WIDTH) chars.pop()
  return chars.join('').trimEnd() + '…'
}

const px = (n: number) => Number(n.toFixed(1))

export function renderBadge(opts: { tr: Tr; name: string; rank: number | null; theme: BadgeTheme; siteName: string }): string {
  const { tr } = opts
  const c = COLORS[opts.theme]
  const name = fitName(opts.name) || '—'
  const vote = opts.rank === null ? tr.t('badge.vote') : tr.t('badge.voteRank', { rank: String(opts.rank) })
  const nameText = px(textWidth(name))
  const voteText = px(textWidth(vote))
  const nameW = Math.ceil(nameText) + 2 * PADDING
  const voteW = Math.ceil(voteText) + 2 * PADDING
  const width = nameW + voteW
  // The name in the title's sentence is set apart from its words (a direction mark in it would
  // turn them around); its own text run below is a line of its own.
  const named = isolateText(opts.name)
  const title = xmlText(opts.rank === null
    ? tr.t('badge.title', { name: named, site: opts.siteName })
    : tr.t('badge.titleRank', { name: named, rank: String(opts.rank), site: opts.siteName }))
  const run = (text: string, x: number, len: number, fg: string) =>
    `<text x="${px(x)}" y="15" fill="${c.shadow}" fill-opacity=".3" textLength="${len}" lengthAdjust="spacingAndGlyphs">${xmlText(text)}</text>` +
    `<text x="${px(x)}" y="14" fill="${fg}" textLength="${len}" lengthAdjust="spacingAndGlyphs">${xmlText(text)}</text>`
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${width}" height="${HEIGHT}" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${nameW}" height="${HEIGHT}" fill="${c.nameBg}"/><rect x="${nameW}" width="${voteW}" height="${HEIGHT}" fill="${c.voteBg}"/>` +
    `<rect width="${width}" height="${HEIGHT}" fill="url(#s)"/></g>` +
    `<g font-family="${FONT_FAMILY}" font-size="${FONT_SIZE}" text-rendering="geometricPrecision">` +
    run(name, PADDING, nameText, c.nameFg) + run(vote, nameW + PADDING, voteText, c.voteFg) +
    `</g></svg>`
}
