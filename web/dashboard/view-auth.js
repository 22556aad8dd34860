// Log in, sign up, and the first run: while the site has no account, the first one created is
// its administrator (the API decides; these pages only lead there).
import { post } from './api.js'
import { h, newId, replace } from './dom.js'
import { controlOf, field, formError, onSubmit, valueOf } from './forms.js'
import { t, tp } from './i18n.js'
/** @import { Ctx } from './app.js' */
/** @import { User, UserAnswer } from '../types/api' */

// The password as typed: spaces around it are part of it.
const credentials = (/** @type {HTMLFormElement} */ form) => ({ email: valueOf(form, 'email'), password: controlOf(form, 'password')?.value ?? '' })

/**
 * @param {{ submitLabel: string, busyLabel: string, newPassword?: boolean, scope?: string, action: (form: HTMLFormElement) => Promise<void> }} options
 */
function accountForm({ submitLabel, busyLabel, newPassword = false, scope, action }) {
  const form = h('form', { class: 'auth-form' },
    formError(),
    field({ name: 'email', label: t('dash.auth.email'), type: 'email', autocomplete: 'email' }),
    field({
      name: 'password', label: t('dash.auth.password'), type: 'password', autocomplete: newPassword ? 'new-password' : 'current-password',
      hint: newPassword ? t('dash.auth.passwordHint') : null,
    }),
    h('button', { type: 'submit', class: 'button button-primary' }, submitLabel))
  return onSubmit(form, action, busyLabel, scope)
}

// The session ended while a page was open: a modal dialog over it to log in again, so that the
// page, and whatever the visitor typed in it, stays. `done` gets the account logged in; `leave`
// runs when the visitor closes the dialog instead (Escape, or its button to the log-in page).
/**
 * @param {{ email: string, done: (user: User) => void, leave: () => void }} options
 */
export function signInAgain({ email, done, leave }) {
  let signedIn = false
  const titleId = newId('session-title')
  const form = accountForm({
    submitLabel: t('dash.login.submit'), busyLabel: t('dash.login.busy'), scope: 'login',
    action: async (f) => {
      const { user } = /** @type {UserAnswer} */ (await post('/api/v1/auth/login', credentials(f)))
      signedIn = true
      dialog.close()
      done(user)
    },
  })
  const address = controlOf(form, 'email')
  if (address instanceof HTMLInputElement) address.value = email
  const dialog = /** @type {HTMLDialogElement} */ (h('dialog', { class: 'card session-dialog', 'aria-labelledby': titleId },
    h('h2', { id: titleId }, t('dash.session.title')),
    h('p', null, t('dash.session.lead')),
    form,
    h('p', { class: 'auth-switch' }, h('button', { type: 'button', class: 'button-small', onClick: () => dialog.close() }, t('dash.session.leave')))))
  dialog.addEventListener('close', () => {
    dialog.remove()
    if (!signedIn) leave()
  })
  document.body.append(dialog)
  dialog.showModal()
  const password = controlOf(form, 'password')
  if (password instanceof HTMLInputElement) password.focus()
}

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export function renderLogin(ctx, el) {
  ctx.setTitle(t('dash.login.title'))
  const form = accountForm({
    submitLabel: t('dash.login.submit'), busyLabel: t('dash.login.busy'), scope: 'login',
    action: async (f) => ctx.loggedIn(/** @type {UserAnswer} */ (await post('/api/v1/auth/login', credentials(f))).user),
  })
  replace(el, h('section', { class: 'card narrow auth-card' },
    h('h1', { tabindex: '-1' }, t('dash.login.title')),
    h('p', { class: 'muted' }, t('dash.login.lead')),
    form,
    ctx.status?.registrationOpen
      ? h('p', { class: 'auth-switch' }, tp('dash.login.noAccount', { link: h('a', { href: '/dashboard/signup' }, t('dash.login.createOne')) }))
      : h('p', { class: 'auth-switch muted' }, t('dash.login.closed'))))
}

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export function renderSignup(ctx, el) {
  ctx.setTitle(t('dash.signup.title'))
  const open = ctx.status?.registrationOpen
  const form = accountForm({
    submitLabel: t('dash.signup.submit'), busyLabel: t('dash.creating'), newPassword: true,
    action: async (f) => ctx.loggedIn(/** @type {UserAnswer} */ (await post('/api/v1/auth/register', credentials(f))).user),
  })
  replace(el, h('section', { class: 'card narrow auth-card' },
    h('h1', { tabindex: '-1' }, t('dash.signup.title')),
    open
      ? [h('p', { class: 'muted' }, t('dash.signup.lead')), form]
      : h('div', { class: 'notice' }, h('p', null, t('dash.signup.closed'))),
    h('p', { class: 'auth-switch' }, tp('dash.signup.registered', { link: h('a', { href: '/dashboard/login' }, t('dash.login.submit')) }))))
}

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export function renderSetup(ctx, el) {
  ctx.setTitle(t('dash.setup.title'))
  const form = accountForm({
    submitLabel: t('dash.setup.title'), busyLabel: t('dash.creating'), newPassword: true,
    action: async (f) => ctx.loggedIn(/** @type {UserAnswer} */ (await post('/api/v1/auth/register', credentials(f))).user),
  })
  replace(el, h('section', { class: 'card narrow auth-card' },
    h('h1', { tabindex: '-1' }, t('dash.setup.welcome', { site: ctx.siteName })),
    h('p', null, tp('dash.setup.lead', { administrator: h('strong', null, t('dash.setup.administrator')) })),
    form))
}
