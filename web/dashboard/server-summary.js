// A server at a glance, as the lists and the server's own page show it: its dashboard address,
// its rank of the month and its players at the last ping.
import { formatTime, h } from './dom.js'

export const serverHref = (slug, tab = '') => `/dashboard/servers/${encodeURIComponent(slug)}${tab ? `/${tab}` : ''}`

// Online state and players of the last ping, in words.
export function playersCell(s) {
  if (s.online === null) return h('span', { class: 'status status-unknown' }, 'Not pinged yet')
  const when = s.lastPingAt ? `Last ping ${formatTime(s.lastPingAt)}` : ''
  if (!s.online) return h('span', { class: 'status status-offline', title: [when, s.pingError].filter(Boolean).join(': ') }, 'Offline')
  return h('span', { class: 'status status-online', title: when }, `${s.players.online.toLocaleString('en-GB')} / ${s.players.max.toLocaleString('en-GB')}`)
}

export const rankText = (s) => (s.hidden ? 'Hidden' : s.rank === null ? '—' : `#${s.rank}`)
