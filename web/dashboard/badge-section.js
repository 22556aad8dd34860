// The "Vote for us" badge (live rank) with its embed snippet, and the vote link to share.
import { h } from './dom.js'
import { copyField } from './copy.js'
/** @import { Server } from '../types/api' */

// The snippet is plain text here (shown, never parsed): the name is escaped for the owner's page.
const attribute = (/** @type {string} */ text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** @param {Server} server */
export function badgeSection(server) {
  const snippet = `<a href="${attribute(server.voteUrl)}"><img src="${attribute(server.badgeUrl)}" alt="Vote for ${attribute(server.name)}"></a>`
  // The preview loads the badge from this site's own origin (the dashboard's CSP allows only it).
  const path = `/api/v1/servers/${encodeURIComponent(server.slug)}/badge.svg`
  const preview = server.hidden
    ? h('p', { class: 'notice' }, 'Hidden servers have no public badge: it answers "not found" until an administrator lists the server again.')
    : h('div', { class: 'badge-previews' },
      h('figure', { class: 'badge-preview light' }, h('img', { src: path, alt: `Vote for ${server.name} (badge, light)` }), h('figcaption', { class: 'muted' }, 'light (default)')),
      h('figure', { class: 'badge-preview dark' }, h('img', { src: `${path}?theme=dark`, alt: `Vote for ${server.name} (badge, dark)` }), h('figcaption', null, '?theme=dark')))
  return h('section', { class: 'card', id: 'badge' },
    h('h2', null, 'Badge and vote link'),
    h('p', null, 'The badge shows your rank of the month, live (refreshed every minute). Put it on your website:'),
    preview,
    copyField(snippet, { label: 'Copy the snippet', block: true }),
    h('h3', null, 'Vote link'),
    h('p', null, 'Send players here. Add their name after ', h('code', null, 'pseudo='), ' to fill in the vote form for them.'),
    copyField(`${server.voteUrl}?pseudo=`, { label: 'Copy the link' }))
}
