// A server at a glance, as the lists and the server's own page show it: its dashboard address,
// its rank of the month and its players at the last ping.
import { formatNumber, formatTime, h } from './dom.js'
import { t } from './i18n.js'
/** @import { TextKey } from '../translate.js' */
/** @import { OwnerServer, Server, UnlistedReason } from '../types/api' */

export const serverHref = (/** @type {string} */ slug, tab = '') => `/dashboard/servers/${encodeURIComponent(slug)}${tab ? `/${tab}` : ''}`

// Online state and players of the last ping, in words.
/** @param {OwnerServer} s */
export function playersCell(s) {
  if (s.online === null) return h('span', { class: 'status status-unknown' }, t('dash.players.unknown'))
  const when = s.lastPingAt ? t('dash.players.lastPing', { time: formatTime(s.lastPingAt) }) : ''
  if (!s.online) return h('span', { class: 'status status-offline', title: [when, s.pingError].filter(Boolean).join(': ') }, t('dash.players.offline'))
  // An answered ping always has its players (null only before the first ping).
  const { online, max } = s.players ?? { online: 0, max: 0 }
  return h('span', { class: 'status status-online', title: when }, `${formatNumber(online)} / ${formatNumber(max)}`)
}

export const rankText = (/** @type {Server} */ s) =>
  (s.hidden ? t('dash.state.hidden') : !s.listed ? t('dash.state.notListed') : s.rank === null ? '—' : `#${formatNumber(s.rank)}`)

// The verified mark of the public pages (a sign for the eye, the word for everyone).
export const verifiedMark = () => h('span', { class: 'verified' }, h('span', { 'aria-hidden': 'true' }, '✓'), ' ', t('common.verified'))

/** @type {Record<UnlistedReason, TextKey>} */
const WHY_SHORT = {
  hidden: 'dash.unlisted.short.hidden',
  disabled: 'dash.unlisted.short.disabled',
  unverified: 'dash.unlisted.short.unverified',
  claimed: 'dash.unlisted.short.claimed',
}

/** @type {Record<UnlistedReason, TextKey>} */
const WHY = {
  hidden: 'dash.unlisted.hidden',
  disabled: 'dash.unlisted.disabled',
  unverified: 'dash.unlisted.unverified',
  claimed: 'dash.unlisted.claimed',
}

// Why a server is off the public site, in a few words (lists) or in full (the server's page).
/** @param {Server} s */
export const unlistedShort = (s) => (s.unlistedReason ? h('div', { class: 'small unlisted-reason' }, t(WHY_SHORT[s.unlistedReason])) : null)
/** @param {Server} s */
export const unlistedNotice = (s) => (s.unlistedReason ? h('p', { class: 'notice' }, t(WHY[s.unlistedReason])) : null)

// The server's icon (decorative: its name is beside it). A hidden server's public icon answers
// "not found": the site's default icon stands in.
/** @param {Server} s */
export function serverIcon(s) {
  const img = h('img', { class: 'server-icon dashboard-icon', src: s.iconUrl, width: '64', height: '64', alt: '' })
  img.addEventListener('error', () => { img.src = '/assets/default-icon.png' }, { once: true })
  return img
}
