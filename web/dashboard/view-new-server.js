// Adding a server; then straight to its "API and webhooks" tab, where rewards are set up.
import { announce, h, replace } from './dom.js'
import { serverForm } from './server-form.js'
import { serverHref } from './server-summary.js'
/** @import { Ctx } from './app.js' */

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export function renderNewServer(ctx, el) {
  ctx.setTitle('Add a server')
  const form = serverForm(ctx, {
    onSaved: (server) => {
      announce(`${server.name} is listed.`)
      ctx.navigate(serverHref(server.slug, 'api'))
    },
  })
  replace(el,
    h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, h('a', { href: '/dashboard' }, 'My servers')),
    h('h1', { tabindex: '-1' }, 'Add a server'),
    h('section', { class: 'card' }, form))
}
