// Administrators: every server of the site with hide / show and delete.
import { isolateText } from '../translate.js'
import { del, get, patch, serverPath } from './api.js'
import { announce, formatNumber, h, replace } from './dom.js'
import { actionButton } from './forms.js'
import { t, tn, tp } from './i18n.js'
import { playersCell, rankText, serverHref, verifiedMark } from './server-summary.js'
import { cell, dataTable } from './table.js'
/** @import { Ctx } from './app.js' */
/** @import { AdminServer, AdminServersAnswer } from '../types/api' */

/**
 * @param {string} caption
 * @param {Array<string | [string, boolean]>} headers
 * @param {HTMLTableRowElement[]} rows
 */
const table = (caption, headers, rows) => h('div', { class: 'card table-card' }, dataTable(caption, headers, h('tbody', null, rows)))

/** @type {Record<import('../types/api').UnlistedReason, import('../translate.js').TextKey>} */
const STATES = { hidden: 'dash.state.hidden', disabled: 'dash.admin.state.disabled', unverified: 'dash.admin.state.unverified', claimed: 'dash.admin.state.claimed' }

// Other accounts' listings of the same address: the verified one keeps it.
/** @param {AdminServer} s */
const conflictNote = (s) => (s.conflicts.length
  ? h('div', { class: 'small unlisted-reason' }, tp('dash.admin.sameAddress', {
    servers: s.conflicts.map((c, i) => [i ? ', ' : '', h('a', { href: serverHref(c.slug) }, isolateText(c.name)), ' ',
      t(c.verified ? 'dash.admin.ownerVerified' : 'dash.admin.owner', { email: c.owner.email })]),
  }))
  : null)

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export async function renderAdminServers(ctx, el) {
  ctx.setTitle(t('dash.admin.title'))
  const { servers } = /** @type {AdminServersAnswer} */ (await get('/api/v1/admin/servers'))
  // After an action the list is drawn again; the focus goes back to that server's row.
  const reload = async (/** @type {string} */ slug) => {
    await renderAdminServers(ctx, el)
    const button = el.querySelector(`tr[data-slug="${CSS.escape(slug)}"] button`)
    if (button instanceof HTMLElement) button.focus()
  }
  const [server, owner, rank, votes, players, state, actions] = [t('dash.servers.server'), t('dash.admin.owner.column'), t('dash.servers.rank'),
    t('dash.servers.votes'), t('dash.servers.players'), t('dash.users.state'), t('dash.users.actions')]
  const rows = servers.map((s) => h('tr', { dataset: { slug: s.slug } },
    cell(server, [
      h('a', { href: serverHref(s.slug) }, isolateText(s.name)),
      s.verified ? verifiedMark() : null,
      h('div', { class: 'muted small' }, s.address),
      conflictNote(s),
    ], { class: 'cell-main' }),
    cell(owner, isolateText(s.owner.email), { class: 'cell-owner' }),
    cell(rank, rankText(s), { class: 'num' }),
    cell(votes, formatNumber(s.monthlyVotes), { class: 'num' }),
    cell(players, playersCell(s), { class: 'num' }),
    cell(state, s.unlistedReason ? h('span', { class: 'pill pill-hidden' }, t(STATES[s.unlistedReason])) : t('dash.admin.listed')),
    cell(actions, h('div', { class: 'row-actions' },
      actionButton(t(s.hidden ? 'dash.admin.show' : 'dash.admin.hide'), async () => {
        await patch(serverPath(s.slug), { hidden: !s.hidden })
        announce(t(s.hidden ? 'dash.admin.shown' : 'dash.admin.hidden', { name: s.name }))
        await reload(s.slug)
      }, { className: 'button-small', ariaLabel: t(s.hidden ? 'dash.admin.showLabel' : 'dash.admin.hideLabel', { name: s.name }) }),
      actionButton(t('dash.delete'), async () => {
        await del(serverPath(s.slug))
        announce(t('dash.admin.deleted', { name: s.name }))
        await reload(s.slug)
      }, {
        className: 'button-small button-danger', ariaLabel: t('dash.deleteLabel', { name: s.name }),
        confirmText: t('dash.admin.confirmDelete', { name: s.name, email: s.owner.email }),
      })))))
  replace(el,
    h('div', { class: 'page-header' }, h('h1', { tabindex: '-1' }, t('dash.admin.title'))),
    h('p', { class: 'muted' }, tn('dash.admin.lead', servers.length)),
    servers.length ? table(t('dash.admin.caption'), [server, owner, [rank, true], [votes, true], [players, true], state, actions], rows)
      : h('p', { class: 'card muted' }, t('dash.admin.empty')))
}
