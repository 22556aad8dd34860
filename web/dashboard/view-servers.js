// "My servers": every server of the account with this month's rank and votes and the players
// online at the last ping.
import { get } from './api.js'
import { h, plural, replace } from './dom.js'
import { playersCell, rankText, serverHref, serverIcon, unlistedShort, verifiedMark } from './server-summary.js'
import { cell, dataTable } from './table.js'
/** @import { Ctx } from './app.js' */
/** @import { ServersAnswer } from '../types/api' */

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export async function renderServers(ctx, el) {
  ctx.setTitle('My servers')
  const { servers } = /** @type {ServersAnswer} */ (await get('/api/v1/me/servers'))
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
      serverIcon(s),
      h('a', { href: serverHref(s.slug) }, s.name),
      s.verified ? verifiedMark() : null,
      s.hidden ? h('span', { class: 'pill pill-hidden' }, 'Hidden') : null,
      h('div', { class: 'muted small' }, s.address),
      s.hidden ? null : unlistedShort(s),
    ], { class: 'cell-main' }),
    cell('Rank this month', rankText(s), { class: 'num' }),
    cell('Votes this month', s.monthlyVotes.toLocaleString('en-GB'), { class: 'num' }),
    cell('Players online', playersCell(s), { class: 'num' }),
    cell('Manage', h('div', { class: 'row-links' },
      h('a', { href: serverHref(s.slug, 'api') }, 'API and webhooks'),
      h('a', { href: serverHref(s.slug, 'deliveries') }, 'Deliveries')))))

  replace(el, header,
    h('p', { class: 'muted' }, `${plural(servers.length, 'server')} · ranks and votes for this month (UTC); players as of the last ping.`),
    h('div', { class: 'card table-card' }, dataTable('My servers',
      ['Server', ['Rank', true], ['Votes this month', true], ['Players online', true], 'Manage'], h('tbody', null, rows))))
}
