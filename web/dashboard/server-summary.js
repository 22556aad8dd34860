// A server at a glance, as the lists and the server's own page show it: its dashboard address,
// its rank of the month and its players at the last ping.
import { formatTime, h } from './dom.js'
/** @import { OwnerServer, Server, UnlistedReason } from '../types/api' */

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

export const rankText = (/** @type {Server} */ s) => (s.hidden ? 'Hidden' : !s.listed ? 'Not listed' : s.rank === null ? '—' : `#${s.rank}`)

// The verified mark of the public pages (a sign for the eye, the word for everyone).
export const verifiedMark = () => h('span', { class: 'verified' }, h('span', { 'aria-hidden': 'true' }, '✓'), ' Verified')

/** @type {Record<UnlistedReason, string>} */
const WHY_SHORT = {
  hidden: 'Hidden by an administrator',
  disabled: 'Not listed: your account is disabled',
  unverified: 'Not listed until you verify that you run it',
  claimed: 'Not listed: another account proved it runs this address',
}

/** @type {Record<UnlistedReason, string>} */
const WHY = {
  hidden: 'An administrator has hidden this server: it is out of the ranking and its public pages answer "not found". Votes already recorded are kept.',
  disabled: 'An administrator has disabled this account: its servers are out of the ranking and their public pages answer "not found". Votes already recorded are kept.',
  unverified: 'Not on the public site yet: this site lists only servers whose owner proved they run them. Put the token shown under Ownership in the server\'s MOTD and press Verify.',
  claimed: 'Not on the public site: another account proved it runs this address (host and port). If the server is yours, put the token shown under Ownership in its MOTD and press Verify: the latest proof wins.',
}

// Why a server is off the public site, in a few words (lists) or in full (the server's page).
/** @param {Server} s */
export const unlistedShort = (s) => (s.unlistedReason ? h('div', { class: 'small unlisted-reason' }, WHY_SHORT[s.unlistedReason]) : null)
/** @param {Server} s */
export const unlistedNotice = (s) => (s.unlistedReason ? h('p', { class: 'notice' }, WHY[s.unlistedReason]) : null)

// The server's icon (decorative: its name is beside it). A hidden server's public icon answers
// "not found": the site's default icon stands in.
/** @param {Server} s */
export function serverIcon(s) {
  const img = h('img', { class: 'server-icon dashboard-icon', src: s.iconUrl, width: '64', height: '64', alt: '' })
  img.addEventListener('error', () => { img.src = '/assets/default-icon.png' }, { once: true })
  return img
}
