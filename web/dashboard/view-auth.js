// Log in, sign up, and the first run: while the site has no account, the first one created is
// its administrator (the API decides; these pages only lead there).
import { post } from './api.js'
import { h, replace } from './dom.js'
import { controlOf, field, formError, onSubmit, valueOf } from './forms.js'
/** @import { Ctx } from './app.js' */
/** @import { UserAnswer } from '../types/api' */

// The password as typed: spaces around it are part of it.
const credentials = (/** @type {HTMLFormElement} */ form) => ({ email: valueOf(form, 'email'), password: controlOf(form, 'password')?.value ?? '' })

/**
 * @param {{ submitLabel: string, busyLabel: string, newPassword?: boolean, action: (form: HTMLFormElement) => Promise<void> }} options
 */
function accountForm({ submitLabel, busyLabel, newPassword = false, action }) {
  const form = h('form', { class: 'auth-form' },
    formError(),
    field({ name: 'email', label: 'E-mail address', type: 'email', autocomplete: 'email' }),
    field({
      name: 'password', label: 'Password', type: 'password', autocomplete: newPassword ? 'new-password' : 'current-password',
      hint: newPassword ? '8 to 256 characters, not only spaces. A few unrelated words make a strong one.' : null,
    }),
    h('button', { type: 'submit', class: 'button button-primary' }, submitLabel))
  return onSubmit(form, action, busyLabel)
}

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export function renderLogin(ctx, el) {
  ctx.setTitle('Log in')
  const form = accountForm({
    submitLabel: 'Log in', busyLabel: 'Logging in…',
    action: async (f) => ctx.loggedIn(/** @type {UserAnswer} */ (await post('/api/v1/auth/login', credentials(f))).user),
  })
  replace(el, h('section', { class: 'card narrow auth-card' },
    h('h1', { tabindex: '-1' }, 'Log in'),
    h('p', { class: 'muted' }, 'Manage your servers, their vote rewards and their deliveries.'),
    form,
    ctx.status?.registrationOpen
      ? h('p', { class: 'auth-switch' }, 'No account yet? ', h('a', { href: '/dashboard/signup' }, 'Create one'))
      : h('p', { class: 'auth-switch muted' }, 'Accounts are created by the site\'s administrator.')))
}

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export function renderSignup(ctx, el) {
  ctx.setTitle('Create an account')
  const open = ctx.status?.registrationOpen
  const form = accountForm({
    submitLabel: 'Create my account', busyLabel: 'Creating…', newPassword: true,
    action: async (f) => ctx.loggedIn(/** @type {UserAnswer} */ (await post('/api/v1/auth/register', credentials(f))).user),
  })
  replace(el, h('section', { class: 'card narrow auth-card' },
    h('h1', { tabindex: '-1' }, 'Create an account'),
    open
      ? [h('p', { class: 'muted' }, 'List your server, then reward every vote through Votifier, the verification API or a webhook.'), form]
      : h('div', { class: 'notice' }, h('p', null, 'Registration is closed on this site: an administrator can create your account.')),
    h('p', { class: 'auth-switch' }, 'Already registered? ', h('a', { href: '/dashboard/login' }, 'Log in'))))
}

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export function renderSetup(ctx, el) {
  ctx.setTitle('Create the administrator account')
  const form = accountForm({
    submitLabel: 'Create the administrator account', busyLabel: 'Creating…', newPassword: true,
    action: async (f) => ctx.loggedIn(/** @type {UserAnswer} */ (await post('/api/v1/auth/register', credentials(f))).user),
  })
  replace(el, h('section', { class: 'card narrow auth-card' },
    h('h1', { tabindex: '-1' }, `Welcome to ${ctx.siteName}`),
    h('p', null, 'This site has no account yet. The account you create now is its ', h('strong', null, 'administrator'),
      ': it can list servers like any owner, and manage every account and server of the site.'),
    form))
}
