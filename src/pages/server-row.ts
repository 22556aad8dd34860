import type { Listing, RankedServer } from '../servers/repo.ts'
import { serverAddress } from '../servers/view.ts'
import { formatCount } from './format.ts'
import { html, type Html } from './html.ts'
import { renderAddress, renderBanner, renderIcon, renderMotd, renderPills, renderPlayers } from './server-parts.ts'
import { renderVerifiedMark } from './verified-mark.ts'

// One server of the ranking: everything needed to pick it, join it and vote for it without
// opening its page. Phones stack it; wider screens put the figures and the Vote button aside.
// Fifty of these make up most of the ranking page's bytes (and of its render time), so the
// markup stays lean: no indentation, ids from the rank (unique on a page).
export function renderServerRow(r: RankedServer, l: Listing, pageHref: string): Html {
  const version = l.version || l.status?.version || ''
  return html`<li class="server-row">
<div class="server-row-icon"><span class="rank"><span class="visually-hidden">Rank </span>${r.rank}</span>${renderIcon(r.slug, l.images)}</div>
<div class="server-row-main">
<h2 class="server-name"><a href="${pageHref}">${r.name}</a>${renderVerifiedMark(r.verified)}</h2>
${renderMotd(l.status?.styledMotd ?? null, 1)}
${renderBanner(r.slug, r.name, l.images)}
${renderAddress(`address-${r.rank}`, serverAddress(l), r.name)}
${renderPills(l.edition, l.modes, version)}
</div>
<div class="server-row-side">
${renderPlayers(l.status, ' players')}
<span class="server-row-votes"><strong>${formatCount(r.votes)}</strong> ${r.votes === 1 ? 'vote' : 'votes'}</span>
<a class="button button-primary" href="/serveur/${r.slug}/voter">Vote<span class="visually-hidden"> for ${r.name}</span></a>
</div>
</li>
`
}
