// A server at a glance, as the lists and the server's own page show it: its dashboard address,
// its rank of the month and its players at the last ping.
import { formatTime, h } from './dom.js'
/** @import { OwnerServer, Server } from '../types/api' */

export const serverHref = (/** @type {string} */ slug, tab = '') => `/dashboard/servers/${encodeURIComponent(slug)}${tab ? `/${tab}` : ''}`

// Online state and players of the last ping, in words.
/** @param {OwnerServer} s */
export function playersCell(s) {
  if (s.online === null) return h('span', { class: 'status status-unknown' }, 'Not pinged yet')
  const when = s.lastPingAt ? `Last ping ${formatTime(s.lastPingAt)}` : ''
  if (!s.online) return h('span', { class: 'status status-offline', title: [when, s.pingError].filter(Boolean).join(': ') }, 'Offline')
  // An answered ping always has its players (null only before the first ping).
  const { online, max } = s.players ?? { online: 0, max: 0 }
  return h('span', { class: 'status status-online', title: when }, `${online.toLocaleString('en-GB')} / ${max.toLocaleString('en-GB')}`)
}

export const rankText = (/** @type {Server} */ s) => (s.hidden ? 'Hidden' : s.rank === null ? '—' : `#${s.rank}`)

// The server's icon (decorative: its name is beside it). A hidden server's public icon answers
// "not found": the site's default icon stands in.
/** @param {Server} s */
export function serverIcon(s) {
  const img = h('img', { class: 'server-icon dashboard-icon', src: s.iconUrl, width: '64', height: '64', alt: '' })
  img.addEventListener('error', () => { img.src = '/assets/default-icon.png' }, { once: true })
  return img
}
