// One server: its figures, and three tabs — Overview (the listing, edit, delete), "API and
// webhooks" (how votes reach the owner) and Deliveries (every push attempt). Tabs are links
// (each has its own address), the current one marked aria-current.
import { isolateText } from '../translate.js'
import { del, get, patch, serverPath } from './api.js'
import { announce, formatNumber, h, replace } from './dom.js'
import { t } from './i18n.js'
import { bannerSection } from './banner-section.js'
import { actionButton } from './forms.js'
import { serverForm } from './server-form.js'
import { renderApiTab } from './view-api.js'
import { renderDeliveriesTab } from './view-deliveries.js'
import { playersCell, rankText, serverHref, serverIcon, unlistedNotice, verifiedMark } from './server-summary.js'
import { verifySection, VERIFY_TITLE_ID } from './verify-section.js'
/** @import { Ctx, Stop } from './app.js' */
/** @import { Child } from '../types/dom' */
/** @import { ServerDetail, ServerDetailAnswer } from '../types/api' */

/** @typedef {'overview' | 'api' | 'deliveries'} Tab */

/** @type {Array<[Tab, import('../translate.js').TextKey, string]>} */
const TABS = [['overview', 'dash.tab.overview', ''], ['api', 'dash.tab.api', 'api'], ['deliveries', 'dash.tab.deliveries', 'deliveries']]

/**
 * @param {string} label
 * @param {Child} value
 */
function tile(label, value) {
  return h('div', { class: 'tile' }, h('div', { class: 'tile-label' }, label), h('div', { class: 'tile-value' }, value))
}

/**
 * @param {Ctx} ctx
 * @param {ServerDetail} server
 * @param {(slug: string) => Promise<void>} refresh draws the page again
 */
async function overviewTab(ctx, server, refresh) {
  const links = h('section', { class: 'card' },
    h('h2', null, t('dash.server.public')),
    h('dl', { class: 'facts' },
      // Off the public site its pages answer "not found": the notice below says why, no link leads there.
      server.listed ? [
        h('dt', null, t('dash.server.page')), h('dd', null, h('a', { href: `/serveur/${encodeURIComponent(server.slug)}` }, `/serveur/${server.slug}`)),
        h('dt', null, t('dash.server.votePage')), h('dd', null, h('a', { href: `/serveur/${encodeURIComponent(server.slug)}/voter` }, `/serveur/${server.slug}/voter`)),
      ] : null,
      h('dt', null, t('dash.server.address')), h('dd', null, h('code', null, server.address)),
      h('dt', null, t('dash.server.totalVotes')), h('dd', null, formatNumber(server.totalVotes))),
    unlistedNotice(server))

  // After a successful check the page is drawn again; the focus returns to the section.
  const ownership = await verifySection(server, async () => {
    await refresh(server.slug)
    document.getElementById(VERIFY_TITLE_ID)?.focus()
  })

  const edit = h('section', { class: 'card' }, h('h2', null, t('dash.server.listing')),
    serverForm(ctx, {
      server,
      onSaved: async (saved) => {
        announce(t('dash.server.saved'))
        await refresh(saved.slug)
      },
    }))

  const danger = h('section', { class: 'card danger-zone' },
    h('h2', null, t('dash.server.deleteTitle')),
    h('p', null, t('dash.server.deleteLead')),
    actionButton(t('dash.server.delete'), async () => {
      await del(serverPath(server.slug))
      announce(t('dash.admin.deleted', { name: server.name }))
      ctx.navigate('/dashboard')
    }, { className: 'button button-danger', confirmText: t('dash.server.confirmDelete', { name: server.name }) }))

  const adminTools = ctx.user?.isAdmin
    ? h('section', { class: 'card' }, h('h2', null, t('dash.server.admin')),
      h('p', null, t(server.hidden ? 'dash.server.isHidden' : 'dash.server.isListed')),
      actionButton(t(server.hidden ? 'dash.server.show' : 'dash.server.hide'), async () => {
        await patch(serverPath(server.slug), { hidden: !server.hidden })
        announce(t(server.hidden ? 'dash.server.shown' : 'dash.server.hidden'))
        await refresh(server.slug)
      }))
    : null
  return [links, ownership, edit, bannerSection(server, refresh), adminTools, danger]
}

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 * @param {string} slug
 * @param {Tab} tab
 * @returns {Promise<Stop>}
 */
export async function renderServer(ctx, el, slug, tab) {
  /** @type {Stop | void} */
  let stop
  const body = h('div', { class: 'tab-body' })

  /** @param {string} currentSlug */
  async function draw(currentSlug) {
    const { server } = /** @type {ServerDetailAnswer} */ (await get(serverPath(currentSlug)))
    const tabKey = TABS.find(([id]) => id === tab)?.[1]
    ctx.setTitle(`${tabKey ? t(tabKey) : ''} · ${isolateText(server.name)}`)
    const tabs = h('nav', { class: 'tabs', 'aria-label': t('dash.server.sections') },
      TABS.map(([id, label, path]) => h('a', { href: serverHref(server.slug, path), 'aria-current': id === tab ? 'page' : null }, t(label))))
    replace(el,
      h('nav', { class: 'breadcrumb', 'aria-label': t('common.breadcrumb') }, h('a', { href: '/dashboard' }, t('dash.nav.servers'))),
      h('div', { class: 'page-header' },
        h('div', { class: 'server-title' }, serverIcon(server), h('h1', { tabindex: '-1' }, isolateText(server.name))),
        h('div', { class: 'pills' },
          h('span', { class: `pill pill-${server.edition}` }, t(server.edition === 'java' ? 'common.java' : 'common.bedrock')),
          server.verified ? verifiedMark() : null,
          server.hidden ? h('span', { class: 'pill pill-hidden' }, t('dash.state.hidden')) : !server.listed ? h('span', { class: 'pill pill-hidden' }, t('dash.state.notListed')) : null)),
      h('div', { class: 'tiles' },
        tile(t('dash.servers.rankMonth'), rankText(server)),
        tile(t('dash.servers.votes'), formatNumber(server.monthlyVotes)),
        tile(t('dash.servers.players'), playersCell(server))),
      tabs, body)
    stop?.()
    stop = undefined
    if (tab === 'overview') replace(body, await overviewTab(ctx, server, draw))
    else if (tab === 'api') await renderApiTab(body, server)
    else stop = await renderDeliveriesTab(body, server)
  }

  await draw(slug)
  return () => stop?.()
}
