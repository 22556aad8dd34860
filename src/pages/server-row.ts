import { isolateText } from '../../web/assets/translate.js'
import type { Listing, RankedServer } from '../servers/repo.ts'
import { serverAddress } from '../servers/view.ts'
import type { Tr } from './text.ts'
import { html, type Html } from './html.ts'
import { renderAddress, renderBanner, renderIcon, renderMotd, renderPills, renderPlayers } from './server-parts.ts'
import { renderVerifiedMark } from './verified-mark.ts'

// One server of the ranking: everything needed to pick it, join it and vote for it without
// opening its page. Phones stack it; wider screens put the figures and the Vote button aside.
// Fifty of these make up most of the ranking page's bytes (and of its render time), so the
// markup stays lean: no indentation, ids from the rank (unique on a page).
export function renderServerRow(tr: Tr, r: RankedServer, l: Listing, pageHref: string): Html {
  const version = l.version || l.status?.version || ''
  return html`<li class="server-row">
<div class="server-row-icon"><span class="rank"><span class="visually-hidden">${tr.n('row.rank', r.rank)}</span><span aria-hidden="true">${tr.number(r.rank)}</span></span>${renderIcon(r.slug, l.images)}</div>
<div class="server-row-main">
<h2 class="server-name"><a href="${pageHref}">${isolateText(r.name)}</a>${renderVerifiedMark(tr, r.verified)}</h2>
${renderMotd(l.status?.styledMotd ?? null, 1)}
${renderBanner(tr, r.slug, r.name, l.images)}
${renderAddress(tr, `address-${r.rank}`, serverAddress(l), r.name)}
${renderPills(tr, l.edition, l.modes, version)}
</div>
<div class="server-row-side">
<span class="server-row-players">${renderPlayers(tr, l.status)}${l.status?.online ? html`<span class="muted"> ${tr.t('row.players')}</span>` : ''}</span>
<span class="server-row-votes">${tr.countHtml('row.votes', r.votes, { count: html`<strong>${tr.number(r.votes)}</strong>` })}</span>
<a class="button button-primary" href="/serveur/${r.slug}/voter">${tr.t('common.vote')}<span class="visually-hidden"> ${tr.t('row.voteFor', { name: r.name })}</span></a>
</div>
</li>
`
}
