import { HEX_COLOR, type Motd, type MotdSpan } from '../motd/format.ts'
import { html, type Html } from './html.ts'

// A MOTD on a page: its text escaped by construction, its styles as CSS classes (the pages'
// Content-Security-Policy allows no inline style). A colour is one of 64 classes, `mc-RGB` with
// each channel rounded to the nearest of the four levels 00, 55, aa, ff: the 16 named colours
// are exactly such levels, so they keep their own colour, and a hex colour (1.16+) takes the
// nearest of the 64. /assets/site.css draws each class on the MOTD's dark box, lightened where
// needed for a 4.5:1 contrast (test/pages/motd-palette.ts writes and checks those rules).

const level = (hex: string) => Math.min(3, Math.round(parseInt(hex, 16) / 85))

export function colorClass(color: string): string {
  return `mc-${level(color.slice(1, 3))}${level(color.slice(3, 5))}${level(color.slice(5, 7))}`
}

function spanClasses(s: MotdSpan): string {
  const classes: string[] = []
  if (s.color && HEX_COLOR.test(s.color)) classes.push(colorClass(s.color))
  if (s.bold) classes.push('mc-b')
  if (s.italic) classes.push('mc-i')
  if (s.underlined) classes.push('mc-u')
  if (s.strikethrough) classes.push('mc-s')
  return classes.join(' ')
}

const renderSpan = (s: MotdSpan) => {
  const classes = spanClasses(s)
  return classes ? html`<span class="${classes}">${s.text}</span>` : html`${s.text}`
}

// The first `lines` lines of a MOTD, lines separated by <br>. The caller wraps it in an element
// of class `motd` (the dark box).
export function renderMotdLines(motd: Motd, lines: number): Html {
  return html`${motd.slice(0, lines).map((line, i) => html`${i ? html`<br>` : ''}${line.map(renderSpan)}`)}`
}
