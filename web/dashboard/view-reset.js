// The page a password reset link opens (/dashboard/reset?token=…): the owner chooses a new
// password; the site logs them in and ends their other sessions.
import { post } from './api.js'
import { h, replace } from './dom.js'
import { controlOf, field, formError, onSubmit } from './forms.js'
import { t } from './i18n.js'
/** @import { Ctx } from './app.js' */
/** @import { UserAnswer } from '../types/api' */

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export function renderReset(ctx, el) {
  ctx.setTitle(t('dash.reset.title'))
  const token = new URLSearchParams(location.search).get('token') ?? ''
  if (!token) {
    replace(el, h('section', { class: 'card narrow auth-card' },
      h('h1', { tabindex: '-1' }, t('dash.reset.title')),
      h('p', null, t('dash.reset.noToken'))))
    return
  }
  const form = onSubmit(h('form', { class: 'auth-form' },
    formError(),
    field({ name: 'password', label: t('dash.reset.password'), type: 'password', autocomplete: 'new-password', hint: t('dash.auth.passwordHint') }),
    h('button', { type: 'submit', class: 'button button-primary' }, t('dash.reset.submit'))), async (f) => {
    const password = controlOf(f, 'password')?.value ?? ''
    const { user } = /** @type {UserAnswer} */ (await post('/api/v1/auth/reset', { token, password }))
    ctx.loggedIn(user)
  }, t('dash.saving'), 'reset')
  replace(el, h('section', { class: 'card narrow auth-card' },
    h('h1', { tabindex: '-1' }, t('dash.reset.title')),
    h('p', { class: 'muted' }, t('dash.reset.lead')),
    form))
}
