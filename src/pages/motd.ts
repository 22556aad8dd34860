import { HEX_COLOR, type Motd, type MotdSpan } from '../motd/format.ts'
import { html, raw, type Html, type Renderable } from './html.ts'

// A MOTD on a page: its text escaped by construction, its styles as CSS classes (the pages'
// Content-Security-Policy allows no inline style). A colour is one of 64 classes, `mc-RGB` with
// each channel rounded to the nearest of the four levels 00, 55, aa, ff: the 16 named colours
// are exactly such levels, so they keep their own colour, and a hex colour (1.16+) takes the
// nearest of the 64. /assets/site.css draws each class on the MOTD's dark box, lightened where
// needed for a 4.5:1 contrast (test/pages/motd-palette.ts writes and checks those rules).

const level = (channel: number) => Math.min(3, Math.round(channel / 85))

export function colorClass(color: string): string {
  const rgb = parseInt(color.slice(1, 7), 16)
  return `mc-${level(rgb >> 16)}${level((rgb >> 8) & 255)}${level(rgb & 255)}`
}

function spanClasses(s: MotdSpan): string {
  let classes = s.color && HEX_COLOR.test(s.color) ? colorClass(s.color) : ''
  if (s.bold) classes += ' mc-b'
  if (s.italic) classes += ' mc-i'
  if (s.underlined) classes += ' mc-u'
  if (s.strikethrough) classes += ' mc-s'
  return classes.trimStart()
}

// Unstyled text stays a string, escaped where it is interpolated.
const renderSpan = (s: MotdSpan): Renderable => {
  const classes = spanClasses(s)
  return classes ? html`<span class="${classes}">${s.text}</span>` : s.text
}

const BR = raw('<br>')

// The first `lines` lines of a MOTD, lines separated by <br>. The caller wraps it in an element
// of class `motd` (the dark box).
export function renderMotdLines(motd: Motd, lines: number): Html {
  return html`${motd.slice(0, lines).map((line, i) => [i ? BR : '', line.map(renderSpan)])}`
}
