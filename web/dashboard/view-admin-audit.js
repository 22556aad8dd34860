// Administrators: the audit log, newest first: who changed what, when, on which target.
import { get } from './api.js'
import { h, replace, timeElement } from './dom.js'
import { actionButton } from './forms.js'
import { cell, dataTable } from './table.js'
/** @import { Ctx } from './app.js' */
/** @import { AuditAnswer, AuditEntry } from '../types/api' */

/** @type {Record<string, string>} */
const ACTIONS = {
  'user.disable': 'Disabled the account',
  'user.enable': 'Enabled the account',
  'user.promote': 'Made it an administrator',
  'user.demote': 'Removed its administrator right',
  'user.delete': 'Deleted the account',
  'user.reset_link': 'Made a password reset link',
  'user.password_reset': 'Set a new password with a reset link',
  'server.hide': 'Hid the server',
  'server.show': 'Listed the server again',
  'server.update': 'Edited the server',
  'server.delete': 'Deleted the server',
  'site.backup': 'Downloaded a backup',
}

/** @param {AuditEntry} e */
function details(e) {
  if (e.action === 'user.delete') return `with ${e.detail.servers} server${e.detail.servers === 1 ? '' : 's'}`
  if (e.action === 'site.backup' && typeof e.detail.bytes === 'number') return `${(e.detail.bytes / 1_048_576).toFixed(1)} MB`
  if (e.action === 'server.delete' && e.detail.slug) return `/serveur/${e.detail.slug}`
  if (e.action === 'server.update' && e.detail.fields) return `changed: ${e.detail.fields}`
  return ''
}

/** @param {AuditEntry} e */
const row = (e) => h('tr', { dataset: { entry: String(e.id) } },
  cell('When', timeElement(e.at, { short: true })),
  cell('Who', e.actor.email, { class: 'cell-main' }),
  cell('What', ACTIONS[e.action] ?? e.action),
  cell('Target', e.target.label),
  cell('Details', details(e) || h('span', { class: 'muted' }, '—')))

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export async function renderAdminAudit(ctx, el) {
  ctx.setTitle('Audit log')
  const first = /** @type {AuditAnswer} */ (await get('/api/v1/admin/audit'))
  const tbody = h('tbody', null, first.entries.map(row))
  const table = dataTable('Audit log, newest first', ['When', 'Who', 'What', 'Target', 'Details'], tbody)
  let next = first.next
  const more = h('p', { class: 'pager' })
  const drawMore = () => replace(more, next ? actionButton('Show older entries', async () => {
    const page = /** @type {AuditAnswer} */ (await get(`/api/v1/admin/audit?before=${encodeURIComponent(next ?? '')}`))
    const added = page.entries.map(row)
    tbody.append(...added)
    table.refit()
    next = page.next
    drawMore()
    // The first new row takes the focus: the button it replaced may be gone.
    const link = added[0]?.querySelector('td')
    if (link) { link.tabIndex = -1; link.focus() }
  }, { className: 'button-small' }) : null)
  drawMore()
  replace(el,
    h('div', { class: 'page-header' }, h('h1', { tabindex: '-1' }, 'Audit log')),
    h('p', { class: 'muted' }, 'Every change made by an administrator (accounts, reset links, other accounts\' servers edited, hidden, shown or deleted), every reset link used and every backup downloaded.'),
    first.entries.length ? [h('div', { class: 'card table-card' }, table), more] : h('p', { class: 'card muted' }, 'Nothing has been changed yet.'))
}
