// Administrators: every server of the site with hide / show and delete.
import { del, get, patch, serverPath } from './api.js'
import { announce, h, plural, replace } from './dom.js'
import { actionButton } from './forms.js'
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

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
const STATES = { hidden: 'Hidden', disabled: 'Not listed: account disabled', unverified: 'Not listed: unverified', claimed: 'Not listed: address claimed' }

// Other accounts' listings of the same address: the verified one keeps it.
/** @param {AdminServer} s */
const conflictNote = (s) => (s.conflicts.length
  ? h('div', { class: 'small unlisted-reason' }, 'Same address as ', s.conflicts.map((c, i) => [i ? ', ' : '',
    h('a', { href: serverHref(c.slug) }, c.name), ` (${c.owner.email}${c.verified ? ', verified' : ''})`]))
  : null)

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export async function renderAdminServers(ctx, el) {
  ctx.setTitle('All servers')
  const { servers } = /** @type {AdminServersAnswer} */ (await get('/api/v1/admin/servers'))
  // After an action the list is drawn again; the focus goes back to that server's row.
  const reload = async (/** @type {string} */ slug) => {
    await renderAdminServers(ctx, el)
    const button = el.querySelector(`tr[data-slug="${CSS.escape(slug)}"] button`)
    if (button instanceof HTMLElement) button.focus()
  }
  const rows = servers.map((s) => h('tr', { dataset: { slug: s.slug } },
    cell('Server', [
      h('a', { href: serverHref(s.slug) }, s.name),
      s.verified ? verifiedMark() : null,
      h('div', { class: 'muted small' }, s.address),
      conflictNote(s),
    ], { class: 'cell-main' }),
    cell('Owner', s.owner.email, { class: 'cell-owner' }),
    cell('Rank', rankText(s), { class: 'num' }),
    cell('Votes this month', s.monthlyVotes.toLocaleString('en-GB'), { class: 'num' }),
    cell('Players online', playersCell(s), { class: 'num' }),
    cell('State', s.unlistedReason ? h('span', { class: 'pill pill-hidden' }, STATES[s.unlistedReason]) : 'Listed'),
    cell('Actions', h('div', { class: 'row-actions' },
      actionButton(s.hidden ? 'Show' : 'Hide', async () => {
        await patch(serverPath(s.slug), { hidden: !s.hidden })
        announce(`${s.name} is ${s.hidden ? 'listed again' : 'hidden'}.`)
        await reload(s.slug)
      }, { className: 'button-small', ariaLabel: `${s.hidden ? 'Show' : 'Hide'} ${s.name}` }),
      actionButton('Delete', async () => {
        await del(serverPath(s.slug))
        announce(`${s.name} was deleted.`)
        await reload(s.slug)
      }, {
        className: 'button-small button-danger', ariaLabel: `Delete ${s.name}`,
        confirmText: `Delete ${s.name} (owner ${s.owner.email}) with all its votes, keys and deliveries? This cannot be undone.`,
      })))))
  replace(el,
    h('div', { class: 'page-header' }, h('h1', { tabindex: '-1' }, 'All servers')),
    h('p', { class: 'muted' }, `${plural(servers.length, 'server')}, hidden ones included. Hiding takes a server out of the ranking and its public pages without deleting anything.`),
    servers.length ? table('Every server of the site', ['Server', 'Owner', ['Rank', true], ['Votes this month', true], ['Players online', true], 'State', 'Actions'], rows)
      : h('p', { class: 'card muted' }, 'No server is listed yet.'))
}
