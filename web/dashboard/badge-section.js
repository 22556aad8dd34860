// The "Vote for us" badge (live rank) with its embed snippet, and the vote link to share.
import { h } from './dom.js'
import { copyField } from './copy.js'
import { t, tp, tr } from './i18n.js'
/** @import { Server } from '../types/api' */

// The snippet is plain text here (shown, never parsed): the name is escaped for the owner's page.
const attribute = (/** @type {string} */ text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** @param {Server} server */
export function badgeSection(server) {
  // The badge speaks site.language unless its address asks for another (?lang=, the hint below).
  const snippet = `<a href="${attribute(server.voteUrl)}"><img src="${attribute(server.badgeUrl)}" alt="${attribute(t('common.voteFor', { name: server.name }))}"></a>`
  // The preview loads the badge from this site's own origin (the dashboard's CSP allows only it).
  const path = `/api/v1/servers/${encodeURIComponent(server.slug)}/badge.svg`
  // Off the public site (hidden, unverified, claimed, account disabled) the badge answers 404.
  const preview = !server.listed
    ? h('p', { class: 'notice' }, t(server.hidden ? 'dash.badge.hidden' : 'dash.badge.unlisted'))
    : h('div', { class: 'badge-previews' },
      h('figure', { class: 'badge-preview light' }, h('img', { src: path, alt: t('dash.badge.altLight', { name: server.name }) }), h('figcaption', { class: 'muted' }, t('dash.badge.light'))),
      h('figure', { class: 'badge-preview dark' }, h('img', { src: `${path}?theme=dark`, alt: t('dash.badge.altDark', { name: server.name }) }), h('figcaption', null, h('code', null, '?theme=dark'))))
  return h('section', { class: 'card', id: 'badge' },
    h('h2', null, t('dash.badge.title')),
    h('p', null, t('dash.badge.lead')),
    preview,
    copyField(snippet, { label: t('dash.badge.copySnippet'), block: true }),
    h('p', { class: 'hint' }, tp('dash.badge.lang', { param: h('code', null, `?lang=${tr.lang}`) })),
    h('h3', null, t('dash.badge.voteLink')),
    h('p', null, tp('dash.badge.voteLinkLead', { param: h('code', null, 'pseudo=') })),
    copyField(`${server.voteUrl}?pseudo=`, { label: t('dash.badge.copyLink') }))
}
