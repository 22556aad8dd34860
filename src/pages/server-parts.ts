import type { Motd } from '../motd/format.ts'
import type { ImageHashes, ServerStatus } from '../servers/repo.ts'
import { bannerPath, iconPath } from '../servers/view.ts'
import type { Tr } from './text.ts'
import { html, type Html } from './html.ts'
import { renderMotdLines } from './motd.ts'

// Pieces of a server that several pages show: its icon, banner, MOTD, address with a copy
// button, labels and players.

// The site's own icon for a server without one: a static file, so a ranking page of servers
// without icons asks the site for one image, not fifty.
const DEFAULT_ICON = '/assets/default-icon.png'

export const editionLabel = (tr: Tr, e: string) => tr.t(e === 'java' ? 'common.java' : 'common.bedrock')

// Decorative (alt=""): the server's name is always next to it. Sized by its place: a list row,
// or the head of a server's own page (`large`).
export function renderIcon(slug: string, images: ImageHashes, size: 'small' | 'large' = 'small'): Html {
  const src = images.icon ? iconPath(slug, images.icon) : DEFAULT_ICON
  return html`<img class="server-icon${size === 'large' ? ' server-icon-large' : ''}" src="${src}" width="64" height="64" alt="">`
}

// The 468×60 banner: its size is given, so the page does not move when it arrives.
export function renderBanner(tr: Tr, slug: string, name: string, images: ImageHashes, lazy = true): Html | '' {
  const src = bannerPath(slug, images.banner)
  if (!src) return ''
  return html`<img class="banner" src="${src}" width="468" height="60" alt="${tr.t('server.bannerAlt', { name })}"${lazy ? html` loading="lazy"` : ''} decoding="async">`
}

// A MOTD box, as many lines as asked; nothing when the server never sent one.
export function renderMotd(motd: Motd | null, lines: number): Html | '' {
  if (!motd || !motd.length) return ''
  return html`<p class="motd">${renderMotdLines(motd, lines)}</p>`
}

// The address as selectable text, with a Copy button that site.js reveals where the clipboard
// works. `id` names the address element (unique on the page).
export function renderAddress(tr: Tr, id: string, address: string, name: string): Html {
  return html`<span class="copy-field"><code id="${id}">${address}</code><button type="button" class="button-small" data-copy="${id}" hidden>${tr.t('common.copy')}<span class="visually-hidden"> ${tr.t('server.copyAddress', { name })}</span></button></span>`
}

export function renderPills(tr: Tr, edition: string, modes: string[], version = ''): Html {
  return html`<span class="pills"><span class="pill pill-${edition}">${editionLabel(tr, edition)}</span>${version ? html`<span class="pill">${version}</span>` : ''}${modes.map((m) => html`<span class="pill">${m}</span>`)}</span>`
}

export function renderPlayers(tr: Tr, status: ServerStatus | null): Html {
  if (!status) return html`<span class="status status-unknown">${tr.t('server.players.unknown')}</span>`
  if (!status.online) return html`<span class="status status-offline">${tr.t('server.players.offline')}</span>`
  return html`<span class="status status-online">${tr.number(status.playersOnline)}<span class="muted"> / ${tr.number(status.playersMax)}</span></span>`
}
