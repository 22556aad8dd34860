// "My servers": every server of the account with this month's rank and votes and the players
// online at the last ping.
import { get } from './api.js'
import { fittedTable, formatTime, h, plural, replace } from './dom.js'

export const serverHref = (slug, tab = '') => `/dashboard/servers/${encodeURIComponent(slug)}${tab ? `/${tab}` : ''}`

// Online state and players of the last ping, in words.
export function playersCell(s) {
  if (s.online === null) return h('span', { class: 'status status-unknown' }, 'Not pinged yet')
  const when = s.lastPingAt ? `Last ping ${formatTime(s.lastPingAt)}` : ''
  if (!s.online) return h('span', { class: 'status status-offline', title: [when, s.pingError].filter(Boolean).join(': ') }, 'Offline')
  return h('span', { class: 'status status-online', title: when }, `${s.players.online.toLocaleString('en-GB')} / ${s.players.max.toLocaleString('en-GB')}`)
}

export const rankText = (s) => (s.hidden ? 'Hidden' : s.rank === null ? '—' : `#${s.rank}`)

// A cell that names its column when the table shows its rows as cards (phones); its content is
// one element, so that the card's label and value stay side by side.
export const cell = (label, content, extra = {}) =>
  h('td', { 'data-label': label, ...extra }, content === null || content === undefined ? null : h('div', { class: 'cell-value' }, content))

export async function renderServers(ctx, el) {
  ctx.setTitle('My servers')
  const { servers } = await get('/api/v1/me/servers')
  const header = h('div', { class: 'page-header' },
    h('h1', { tabindex: '-1' }, 'My servers'),
    h('a', { class: 'button button-primary', href: '/dashboard/servers/new' }, 'Add a server'))

  if (!servers.length) {
    replace(el, header, h('section', { class: 'card empty-state' },
      h('h2', null, 'List your first server'),
      h('p', null, 'Three steps, about two minutes:'),
      h('ol', { class: 'steps' },
        h('li', null, 'Add your server: its name and the address players join.'),
        h('li', null, 'Choose how votes reach you: a Votifier push to your server, the verification API for your plugin, or a webhook.'),
        h('li', null, 'Press Test, then share your vote link and badge.')),
      h('p', null, h('a', { class: 'button button-primary', href: '/dashboard/servers/new' }, 'Add a server'))))
    return
  }

  const rows = servers.map((s) => h('tr', null,
    cell('Server', [
      h('a', { href: serverHref(s.slug) }, s.name),
      s.hidden ? h('span', { class: 'pill pill-hidden' }, 'Hidden') : null,
      h('div', { class: 'muted small' }, s.address),
    ], { class: 'cell-main' }),
    cell('Rank this month', rankText(s), { class: 'num' }),
    cell('Votes this month', s.monthlyVotes.toLocaleString('en-GB'), { class: 'num' }),
    cell('Players online', playersCell(s), { class: 'num' }),
    cell('Manage', h('div', { class: 'row-links' },
      h('a', { href: serverHref(s.slug, 'api') }, 'API and webhooks'),
      h('a', { href: serverHref(s.slug, 'deliveries') }, 'Deliveries')))))

  replace(el, header,
    h('p', { class: 'muted' }, `${plural(servers.length, 'server')} · ranks and votes for this month (UTC); players as of the last ping.`),
    h('div', { class: 'card table-card' }, fittedTable(h('table', { class: 'table' },
      h('caption', { class: 'visually-hidden' }, 'My servers'),
      h('thead', null, h('tr', null,
        h('th', { scope: 'col' }, 'Server'), h('th', { scope: 'col', class: 'num' }, 'Rank'), h('th', { scope: 'col', class: 'num' }, 'Votes this month'),
        h('th', { scope: 'col', class: 'num' }, 'Players online'), h('th', { scope: 'col' }, 'Manage'))),
      h('tbody', null, rows)))))
}
