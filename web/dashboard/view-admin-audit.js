// Administrators: the audit log, newest first: who changed what, when, on which target.
import { isolateText } from '../translate.js'
import { get } from './api.js'
import { formatNumber, h, replace, timeElement } from './dom.js'
import { actionButton } from './forms.js'
import { t, tn, tr } from './i18n.js'
import { cell, dataTable } from './table.js'
/** @import { Ctx } from './app.js' */
/** @import { AuditAnswer, AuditEntry } from '../types/api' */

// The action as the log says it; an action this dashboard does not know yet shows its id.
/** @param {string} action */
const actionText = (action) => tr.find(`dash.audit.action.${action}`) ?? action

// The listing's fields an edit names (the API's names), as the listing form labels them.
/** @type {Record<string, import('../translate.js').TextKey>} */
const FIELD_LABELS = {
  name: 'dash.form.name', host: 'dash.form.host', port: 'dash.form.port', edition: 'common.edition', modes: 'dash.form.modes',
  version: 'dash.form.version', description: 'dash.form.description', website: 'dash.form.website', banner: 'dash.banner.title',
}

/** @param {unknown} fields "version, description", as the site recorded them */
const changedFields = (fields) => String(fields).split(',').map((f) => f.trim()).filter(Boolean)
  .map((f) => (FIELD_LABELS[f] ? t(FIELD_LABELS[f]) : f)).join(', ')

/** @param {AuditEntry} e */
function details(e) {
  if (e.action === 'user.delete') return tn('dash.audit.withServers', Number(e.detail.servers))
  if (e.action === 'site.backup' && typeof e.detail.bytes === 'number') return t('dash.audit.megabytes', { size: formatNumber(e.detail.bytes / 1_048_576) })
  if (e.action === 'server.delete' && e.detail.slug) return `/serveur/${e.detail.slug}`
  if (e.action === 'server.update' && e.detail.fields) return t('dash.audit.changed', { fields: changedFields(e.detail.fields) })
  // An API key by its prefix; a delivery target by its channel (Webhook, Votifier, Discord: names).
  if (e.action.startsWith('server.key_') && e.detail.prefix) return String(e.detail.prefix)
  if (e.action.startsWith('server.channel_') && e.detail.channel) return String(e.detail.channel)
  if (e.action === 'server.test_vote' && e.detail.pseudo) return String(e.detail.pseudo)
  if (e.action === 'server.redeliver' && e.detail.pseudo) return `${e.detail.channel} · ${e.detail.pseudo}`
  return ''
}

const COLUMNS = () => [t('dash.audit.when'), t('dash.audit.who'), t('dash.audit.what'), t('dash.audit.target'), t('dash.audit.details')]

/** @param {AuditEntry} e */
const row = (e) => {
  const [when, who, what, target, detail] = COLUMNS()
  return h('tr', { dataset: { entry: String(e.id) } },
    cell(when, timeElement(e.at, { short: true })),
    cell(who, isolateText(e.actor.email), { class: 'cell-main' }),
    cell(what, actionText(e.action)),
    cell(target, isolateText(e.target.label)),
    cell(detail, details(e) || h('span', { class: 'muted' }, '—')))
}

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export async function renderAdminAudit(ctx, el) {
  ctx.setTitle(t('dash.audit.title'))
  const first = /** @type {AuditAnswer} */ (await get('/api/v1/admin/audit'))
  const tbody = h('tbody', null, first.entries.map(row))
  const table = dataTable(t('dash.audit.caption'), COLUMNS(), tbody)
  let next = first.next
  const more = h('p', { class: 'pager' })
  const drawMore = () => replace(more, next ? actionButton(t('dash.audit.older'), async () => {
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
    h('div', { class: 'page-header' }, h('h1', { tabindex: '-1' }, t('dash.audit.title'))),
    h('p', { class: 'muted' }, t('dash.audit.lead')),
    first.entries.length ? [h('div', { class: 'card table-card' }, table), more] : h('p', { class: 'card muted' }, t('dash.audit.empty')))
}
