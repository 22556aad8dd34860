import type { Motd } from '../motd/format.ts'
import type { ImageHashes, ServerStatus } from '../servers/repo.ts'
import { bannerPath, iconPath } from '../servers/view.ts'
import { formatCount } from './format.ts'
import { html, type Html } from './html.ts'
import { renderMotdLines } from './motd.ts'

// Pieces of a server that several pages show: its icon, banner, MOTD, address with a copy
// button, labels and players.

// The site's own icon for a server without one: a static file, so a ranking page of servers
// without icons asks the site for one image, not fifty.
const DEFAULT_ICON = '/assets/default-icon.png'

export const editionLabel = (e: string) => (e === 'java' ? 'Java' : 'Bedrock')

// Decorative (alt=""): the server's name is always next to it. Sized by its place: a list row,
// or the head of a server's own page (`large`).
export function renderIcon(slug: string, images: ImageHashes, size: 'small' | 'large' = 'small'): Html {
  const src = images.icon ? iconPath(slug, images.icon) : DEFAULT_ICON
  return html`<img class="server-icon${size === 'large' ? ' server-icon-large' : ''}" src="${src}" width="64" height="64" alt="">`
}

// The 468×60 banner: its size is given, so the page does not move when it arrives.
export function renderBanner(slug: string, name: string, images: ImageHashes, lazy = true): Html | '' {
  const src = bannerPath(slug, images.banner)
  if (!src) return ''
  return html`<img class="banner" src="${src}" width="468" height="60" alt="Banner of ${name}"${lazy ? html` loading="lazy"` : ''} decoding="async">`
}

// A MOTD box, as many lines as asked; nothing when the server never sent one.
export function renderMotd(motd: Motd | null, lines: number): Html | '' {
  if (!motd || !motd.length) return ''
  return html`<p class="motd">${renderMotdLines(motd, lines)}</p>`
}

// The address as selectable text, with a Copy button that site.js reveals where the clipboard
// works. `id` names the address element (unique on the page).
export function renderAddress(id: string, address: string, name: string): Html {
  return html`<span class="copy-field"><code id="${id}">${address}</code><button type="button" class="button-small" data-copy="${id}" hidden>Copy<span class="visually-hidden"> the address of ${name}</span></button></span>`
}

export function renderPills(edition: string, modes: string[], version = ''): Html {
  return html`<span class="pills"><span class="pill pill-${edition}">${editionLabel(edition)}</span>${version ? html`<span class="pill">${version}</span>` : ''}${modes.map((m) => html`<span class="pill">${m}</span>`)}</span>`
}

// `unit` follows the maximum, as in "12 / 100 players".
export function renderPlayers(status: ServerStatus | null, unit = ''): Html {
  if (!status) return html`<span class="status status-unknown">not measured yet</span>`
  if (!status.online) return html`<span class="status status-offline">offline</span>`
  return html`<span class="status status-online">${formatCount(status.playersOnline)}<span class="muted"> / ${formatCount(status.playersMax)}${unit}</span></span>`
}
