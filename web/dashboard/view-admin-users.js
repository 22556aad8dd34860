// Administrators: every account, with disable / enable, administrator right given or removed,
// delete (with its servers, after a confirmation) and a one-time password reset link to copy.
import { del, get, patch, post } from './api.js'
import { copyField } from './copy.js'
import { announce, formatDay, h, plural, replace, timeElement } from './dom.js'
import { actionButton } from './forms.js'
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
    h('h2', { id: 'reset-link-title', tabindex: '-1' }, `Reset link for ${user.email}`),
    h('p', null, 'Give this link to the account\'s owner: it opens a page where they choose a new password. It works once, until ',
      timeElement(link.expiresAt), '. Making another link replaces this one. It is shown only now.'),
    copyField(link.url, { label: 'Copy the link' }))
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
  ctx.setTitle('Users')
  const { users } = /** @type {AdminUsersAnswer} */ (await get('/api/v1/admin/users'))
  const me = ctx.user?.id
  // After an action the list is drawn again; the focus goes back to the same button of that row.
  const again = async (/** @type {{ id: string, label: string } | 'reset-link' | 'heading'} */ focus, link = after.link) => drawUsers(ctx, el, { focus, link })

  /** @param {AdminUser} u */
  const actions = (u) => {
    const name = u.email
    /** @type {HTMLElement[]} */
    const buttons = [
      actionButton(u.disabled ? 'Enable' : 'Disable', async () => {
        await patch(userPath(u.id), { disabled: !u.disabled })
        announce(u.disabled ? `${name} is enabled again.` : `${name} is disabled: its sessions ended and its servers left the list.`)
        await again({ id: u.id, label: u.disabled ? 'Disable' : 'Enable' })
      }, { className: 'button-small', ariaLabel: `${u.disabled ? 'Enable' : 'Disable'} ${name}` }),
      actionButton(u.isAdmin ? 'Remove admin' : 'Make admin', async () => {
        await patch(userPath(u.id), { admin: !u.isAdmin })
        announce(u.isAdmin ? `${name} is no longer an administrator.` : `${name} is now an administrator.`)
        await again({ id: u.id, label: u.isAdmin ? 'Make admin' : 'Remove admin' })
      }, { className: 'button-small', ariaLabel: `${u.isAdmin ? 'Remove the administrator right of' : 'Make an administrator of'} ${name}` }),
      actionButton('Reset link', async () => {
        const answer = /** @type {ResetLinkAnswer} */ (await post(userPath(u.id, '/reset-link')))
        await again('reset-link', { user: u, answer })
        announce(`A reset link for ${name} is ready to copy.`)
      }, { className: 'button-small', ariaLabel: `Make a password reset link for ${name}` }),
    ]
    // An administrator's own account is deleted by another administrator.
    if (u.id !== me) {
      buttons.push(actionButton('Delete', async () => {
        await del(userPath(u.id))
        announce(`${name} was deleted with ${plural(u.servers, 'server')}.`)
        await again('heading', after.link?.user.id === u.id ? undefined : after.link)
      }, {
        className: 'button-small button-danger', ariaLabel: `Delete ${name}`,
        confirmText: `Delete the account ${name} with its ${plural(u.servers, 'server')} and all their votes, keys and deliveries? This cannot be undone.`,
      }))
    }
    return h('div', { class: 'row-actions' }, buttons)
  }

  const rows = users.map((u) => h('tr', { dataset: { userId: u.id } },
    cell('E-mail address', [u.email, u.id === me ? h('span', { class: 'muted small' }, ' (you)') : null], { class: 'cell-main' }),
    cell('Role', u.isAdmin ? h('span', { class: 'pill pill-admin' }, 'Administrator') : 'Owner'),
    cell('Servers', String(u.servers), { class: 'num' }),
    cell('Created', formatDay(u.createdAt)),
    cell('State', u.disabled ? h('span', { class: 'pill pill-hidden' }, 'Disabled') : 'Enabled'),
    cell('Actions', actions(u))))

  replace(el,
    h('div', { class: 'page-header' }, h('h1', { tabindex: '-1' }, 'Users')),
    h('p', { class: 'muted' }, `${plural(users.length, 'account')}. New accounts sign up on the dashboard (when registration is open) or are added with `,
      h('code', null, 'votelist user add'), '. A disabled account cannot log in, its servers leave the public list and its API keys stop working. Every change is written to the ',
      h('a', { href: '/dashboard/admin/audit' }, 'audit log'), '.'),
    after.link ? resetLinkCard(after.link.user, after.link.answer) : null,
    h('div', { class: 'card table-card' }, dataTable('Every account', ['E-mail address', 'Role', ['Servers', true], 'Created', 'State', 'Actions'], h('tbody', null, rows))))

  if (after.focus === 'reset-link') el.querySelector('.reset-link')?.querySelector('h2')?.focus()
  else if (after.focus === 'heading') el.querySelector('h1')?.focus()
  else if (after.focus) {
    const { id, label } = after.focus
    const button = [...el.querySelectorAll(`tr[data-user-id="${CSS.escape(id)}"] button`)].find((b) => b.textContent === label)
    if (button instanceof HTMLElement) button.focus()
  }
}
