// Adding a server; then straight to its "API and webhooks" tab, where rewards are set up.
import { announce, h, replace } from './dom.js'
import { t } from './i18n.js'
import { serverForm } from './server-form.js'
import { serverHref } from './server-summary.js'
/** @import { Ctx } from './app.js' */

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export function renderNewServer(ctx, el) {
  ctx.setTitle(t('dash.servers.add'))
  const form = serverForm(ctx, {
    onSaved: (server) => {
      announce(t('dash.servers.added', { name: server.name }))
      ctx.navigate(serverHref(server.slug, 'api'))
    },
  })
  replace(el,
    h('nav', { class: 'breadcrumb', 'aria-label': t('common.breadcrumb') }, h('a', { href: '/dashboard' }, t('dash.nav.servers'))),
    h('h1', { tabindex: '-1' }, t('dash.servers.add')),
    h('section', { class: 'card' }, form))
}
