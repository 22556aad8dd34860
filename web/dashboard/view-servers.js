// "My servers": every server of the account with this month's rank and votes and the players
// online at the last ping.
import { isolateText } from '../translate.js'
import { get } from './api.js'
import { formatNumber, h, replace } from './dom.js'
import { t, tn } from './i18n.js'
import { playersCell, rankText, serverHref, serverIcon, unlistedShort, verifiedMark } from './server-summary.js'
import { cell, dataTable } from './table.js'
/** @import { Ctx } from './app.js' */
/** @import { ServersAnswer } from '../types/api' */

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export async function renderServers(ctx, el) {
  ctx.setTitle(t('dash.nav.servers'))
  const { servers } = /** @type {ServersAnswer} */ (await get('/api/v1/me/servers'))
  const header = h('div', { class: 'page-header' },
    h('h1', { tabindex: '-1' }, t('dash.nav.servers')),
    h('a', { class: 'button button-primary', href: '/dashboard/servers/new' }, t('dash.servers.add')))

  if (!servers.length) {
    replace(el, header, h('section', { class: 'card empty-state' },
      h('h2', null, t('dash.servers.first')),
      h('p', null, t('dash.servers.steps')),
      h('ol', { class: 'steps' },
        h('li', null, t('dash.servers.step1')),
        h('li', null, t('dash.servers.step2')),
        h('li', null, t('dash.servers.step3'))),
      h('p', null, h('a', { class: 'button button-primary', href: '/dashboard/servers/new' }, t('dash.servers.add')))))
    return
  }

  const [server, rank, votes, players, manage] = [t('dash.servers.server'), t('dash.servers.rankMonth'), t('dash.servers.votes'), t('dash.servers.players'), t('dash.servers.manage')]
  const rows = servers.map((s) => h('tr', null,
    cell(server, [
      serverIcon(s),
      h('a', { href: serverHref(s.slug) }, isolateText(s.name)),
      s.verified ? verifiedMark() : null,
      s.hidden ? h('span', { class: 'pill pill-hidden' }, t('dash.state.hidden')) : null,
      h('div', { class: 'muted small' }, s.address),
      s.hidden ? null : unlistedShort(s),
    ], { class: 'cell-main' }),
    cell(rank, rankText(s), { class: 'num' }),
    cell(votes, formatNumber(s.monthlyVotes), { class: 'num' }),
    cell(players, playersCell(s), { class: 'num' }),
    cell(manage, h('div', { class: 'row-links' },
      h('a', { href: serverHref(s.slug, 'api') }, t('dash.tab.api')),
      h('a', { href: serverHref(s.slug, 'deliveries') }, t('dash.tab.deliveries'))))))

  replace(el, header,
    h('p', { class: 'muted' }, tn('dash.servers.lead', servers.length)),
    h('div', { class: 'card table-card' }, dataTable(t('dash.nav.servers'),
      [server, [t('dash.servers.rank'), true], [votes, true], [players, true], manage], h('tbody', null, rows))))
}
