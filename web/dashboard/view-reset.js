// The page a password reset link opens (/dashboard/reset?token=…): the owner chooses a new
// password; the site logs them in and ends their other sessions.
import { post } from './api.js'
import { h, replace } from './dom.js'
import { controlOf, field, formError, onSubmit } from './forms.js'
/** @import { Ctx } from './app.js' */
/** @import { UserAnswer } from '../types/api' */

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export function renderReset(ctx, el) {
  ctx.setTitle('Choose a new password')
  const token = new URLSearchParams(location.search).get('token') ?? ''
  if (!token) {
    replace(el, h('section', { class: 'card narrow auth-card' },
      h('h1', { tabindex: '-1' }, 'Choose a new password'),
      h('p', null, 'This page opens from a password reset link, which the site\'s administrator gives you. Ask them for one.')))
    return
  }
  const form = onSubmit(h('form', { class: 'auth-form' },
    formError(),
    field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: '8 to 256 characters, not only spaces. A few unrelated words make a strong one.' }),
    h('button', { type: 'submit', class: 'button button-primary' }, 'Set my new password')), async (f) => {
    const password = controlOf(f, 'password')?.value ?? ''
    const { user } = /** @type {UserAnswer} */ (await post('/api/v1/auth/reset', { token, password }))
    ctx.loggedIn(user)
  }, 'Saving…')
  replace(el, h('section', { class: 'card narrow auth-card' },
    h('h1', { tabindex: '-1' }, 'Choose a new password'),
    h('p', { class: 'muted' }, 'Your new password replaces the old one, and every other session of your account ends. The link works once.'),
    form))
}
