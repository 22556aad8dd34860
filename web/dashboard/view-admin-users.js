// Administrators: every account, with disable / enable, administrator right given or removed,
// delete (with its servers, after a confirmation) and a one-time password reset link to copy.
import { isolateText } from '../translate.js'
import { del, get, patch, post } from './api.js'
import { copyField } from './copy.js'
import { announce, formatDay, formatNumber, h, replace, timeElement } from './dom.js'
import { actionButton } from './forms.js'
import { t, tn, tnp, tp } from './i18n.js'
import { cell, dataTable } from './table.js'
/** @import { Ctx } from './app.js' */
/** @import { AdminUser, AdminUsersAnswer, ResetLinkAnswer } from '../types/api' */

const userPath = (/** @type {string} */ id, rest = '') => `/api/v1/admin/users/${encodeURIComponent(id)}${rest}`

// A reset link just made: shown once (the site keeps only its hash), with its Copy button.
/**
 * @param {AdminUser} user
 * @param {ResetLinkAnswer} link
 */
function resetLinkCard(user, link) {
  return h('section', { class: 'card reset-link', 'aria-labelledby': 'reset-link-title' },
    h('h2', { id: 'reset-link-title', tabindex: '-1' }, t('dash.users.resetTitle', { email: user.email })),
    h('p', null, tp('dash.users.resetLead', { time: timeElement(link.expiresAt) })),
    copyField(link.url, { label: t('dash.badge.copyLink') }))
}

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export const renderAdminUsers = (ctx, el) => drawUsers(ctx, el)

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 * @param {{ focus?: { id: string, label: string } | 'reset-link' | 'heading', link?: { user: AdminUser, answer: ResetLinkAnswer } }} [after]
 *   what the last action left: where the focus goes, a reset link to show
 */
async function drawUsers(ctx, el, after = {}) {
  ctx.setTitle(t('dash.users.title'))
  const { users } = /** @type {AdminUsersAnswer} */ (await get('/api/v1/admin/users'))
  const me = ctx.user?.id
  // After an action the list is drawn again; the focus goes back to the same button of that row.
  const again = async (/** @type {{ id: string, label: string } | 'reset-link' | 'heading'} */ focus, link = after.link) => drawUsers(ctx, el, { focus, link })

  /** @param {AdminUser} u */
  const actions = (u) => {
    const name = u.email
    const [enable, disable, makeAdmin, removeAdmin] = [t('dash.users.enable'), t('dash.users.disable'), t('dash.users.makeAdmin'), t('dash.users.removeAdmin')]
    /** @type {HTMLElement[]} */
    const buttons = [
      actionButton(u.disabled ? enable : disable, async () => {
        await patch(userPath(u.id), { disabled: !u.disabled })
        announce(t(u.disabled ? 'dash.users.enabled' : 'dash.users.disabled', { email: name }))
        await again({ id: u.id, label: u.disabled ? disable : enable })
      }, { className: 'button-small', ariaLabel: t(u.disabled ? 'dash.users.enableLabel' : 'dash.users.disableLabel', { email: name }) }),
      actionButton(u.isAdmin ? removeAdmin : makeAdmin, async () => {
        await patch(userPath(u.id), { admin: !u.isAdmin })
        announce(t(u.isAdmin ? 'dash.users.demoted' : 'dash.users.promoted', { email: name }))
        // Their own right given up: this page (and the header's administrator links) are no longer theirs.
        if (u.id === me && u.isAdmin) return ctx.userChanged({ isAdmin: false })
        await again({ id: u.id, label: u.isAdmin ? makeAdmin : removeAdmin })
      }, { className: 'button-small', ariaLabel: t(u.isAdmin ? 'dash.users.removeAdminLabel' : 'dash.users.makeAdminLabel', { email: name }) }),
      actionButton(t('dash.users.resetLink'), async () => {
        const answer = /** @type {ResetLinkAnswer} */ (await post(userPath(u.id, '/reset-link')))
        await again('reset-link', { user: u, answer })
        announce(t('dash.users.resetReady', { email: name }))
      }, { className: 'button-small', ariaLabel: t('dash.users.resetLabel', { email: name }) }),
    ]
    // An administrator's own account is deleted by another administrator.
    if (u.id !== me) {
      buttons.push(actionButton(t('dash.delete'), async () => {
        await del(userPath(u.id))
        announce(tn('dash.users.deleted', u.servers, { email: name }))
        await again('heading', after.link?.user.id === u.id ? undefined : after.link)
      }, {
        className: 'button-small button-danger', ariaLabel: t('dash.deleteLabel', { name }),
        confirmText: tn('dash.users.confirmDelete', u.servers, { email: name }),
      }))
    }
    return h('div', { class: 'row-actions' }, buttons)
  }

  const columns = [t('dash.auth.email'), t('dash.users.role'), t('dash.users.servers'), t('dash.users.created'), t('dash.users.state'), t('dash.users.actions')]
  const [email, role, servers, created, state, actionsColumn] = columns
  const rows = users.map((u) => h('tr', { dataset: { userId: u.id } },
    cell(email, [isolateText(u.email), u.id === me ? h('span', { class: 'muted small' }, ` ${t('dash.users.you')}`) : null], { class: 'cell-main' }),
    cell(role, u.isAdmin ? h('span', { class: 'pill pill-admin' }, t('dash.users.administrator')) : t('dash.users.owner')),
    cell(servers, formatNumber(u.servers), { class: 'num' }),
    cell(created, formatDay(u.createdAt)),
    cell(state, u.disabled ? h('span', { class: 'pill pill-hidden' }, t('dash.users.stateDisabled')) : t('dash.users.stateEnabled')),
    cell(actionsColumn, actions(u))))

  replace(el,
    h('div', { class: 'page-header' }, h('h1', { tabindex: '-1' }, t('dash.users.title'))),
    h('p', { class: 'muted' }, tnp('dash.users.lead', users.length, {
      command: h('code', null, 'votelist user add'), audit: h('a', { href: '/dashboard/admin/audit' }, t('dash.users.auditLink')),
    })),
    after.link ? resetLinkCard(after.link.user, after.link.answer) : null,
    h('div', { class: 'card table-card' }, dataTable(t('dash.users.caption'), [email, role, [servers, true], created, state, actionsColumn], h('tbody', null, rows))))

  if (after.focus === 'reset-link') el.querySelector('.reset-link')?.querySelector('h2')?.focus()
  else if (after.focus === 'heading') el.querySelector('h1')?.focus()
  else if (after.focus) {
    const { id, label } = after.focus
    const button = [...el.querySelectorAll(`tr[data-user-id="${CSS.escape(id)}"] button`)].find((b) => b.textContent === label)
    if (button instanceof HTMLElement) button.focus()
  }
}
