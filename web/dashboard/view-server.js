// One server: its figures, and three tabs — Overview (the listing, edit, delete), "API and
// webhooks" (how votes reach the owner) and Deliveries (every push attempt). Tabs are links
// (each has its own address), the current one marked aria-current.
import { del, get, patch, serverPath } from './api.js'
import { announce, h, replace } from './dom.js'
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

/** @type {Array<[Tab, string, string]>} */
const TABS = [['overview', 'Overview', ''], ['api', 'API and webhooks', 'api'], ['deliveries', 'Deliveries', 'deliveries']]

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
    h('h2', null, 'Public pages'),
    h('dl', { class: 'facts' },
      h('dt', null, 'Server page'), h('dd', null, h('a', { href: `/serveur/${encodeURIComponent(server.slug)}` }, `/serveur/${server.slug}`)),
      h('dt', null, 'Vote page'), h('dd', null, h('a', { href: `/serveur/${encodeURIComponent(server.slug)}/voter` }, `/serveur/${server.slug}/voter`)),
      h('dt', null, 'Address'), h('dd', null, h('code', null, server.address)),
      h('dt', null, 'Total votes'), h('dd', null, server.totalVotes.toLocaleString('en-GB'))),
    unlistedNotice(server))

  // After a successful check the page is drawn again; the focus returns to the section.
  const ownership = await verifySection(server, async () => {
    await refresh(server.slug)
    document.getElementById(VERIFY_TITLE_ID)?.focus()
  })

  const edit = h('section', { class: 'card' }, h('h2', null, 'Listing'),
    serverForm(ctx, {
      server,
      onSaved: async (saved) => {
        announce('Changes saved.')
        await refresh(saved.slug)
      },
    }))

  const danger = h('section', { class: 'card danger-zone' },
    h('h2', null, 'Delete this server'),
    h('p', null, 'Removes the server with all its votes, API keys, webhook, Votifier target, deliveries and statistics. This cannot be undone.'),
    actionButton('Delete the server', async () => {
      await del(serverPath(server.slug))
      announce(`${server.name} was deleted.`)
      ctx.navigate('/dashboard')
    }, { className: 'button button-danger', confirmText: `Delete ${server.name} with all its votes, keys and deliveries? This cannot be undone.` }))

  const adminTools = ctx.user?.isAdmin
    ? h('section', { class: 'card' }, h('h2', null, 'Administration'),
      h('p', null, server.hidden ? 'Hidden: out of the ranking and the public pages.' : 'Listed: in the ranking and the public pages.'),
      actionButton(server.hidden ? 'Show the server' : 'Hide the server', async () => {
        await patch(serverPath(server.slug), { hidden: !server.hidden })
        announce(server.hidden ? 'The server is listed again.' : 'The server is hidden.')
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
    const tabLabel = TABS.find(([id]) => id === tab)?.[1] ?? ''
    ctx.setTitle(`${tabLabel} · ${server.name}`)
    const tabs = h('nav', { class: 'tabs', 'aria-label': 'Server sections' },
      TABS.map(([id, label, path]) => h('a', { href: serverHref(server.slug, path), 'aria-current': id === tab ? 'page' : null }, label)))
    replace(el,
      h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, h('a', { href: '/dashboard' }, 'My servers')),
      h('div', { class: 'page-header' },
        h('div', { class: 'server-title' }, serverIcon(server), h('h1', { tabindex: '-1' }, server.name)),
        h('div', { class: 'pills' },
          h('span', { class: `pill pill-${server.edition}` }, server.edition === 'java' ? 'Java' : 'Bedrock'),
          server.verified ? verifiedMark() : null,
          server.hidden ? h('span', { class: 'pill pill-hidden' }, 'Hidden') : !server.listed ? h('span', { class: 'pill pill-hidden' }, 'Not listed') : null)),
      h('div', { class: 'tiles' },
        tile('Rank this month', rankText(server)),
        tile('Votes this month', server.monthlyVotes.toLocaleString('en-GB')),
        tile('Players online', playersCell(server))),
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
