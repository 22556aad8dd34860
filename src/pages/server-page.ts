import { monthOf } from '../servers/month.ts'
import type { Server, ServerStatus } from '../servers/repo.ts'
import { serverAddress } from '../servers/view.ts'
import { formatCount, formatMonth, formatUtc, shiftMonth } from './format.ts'
import { html, safeUrl } from './html.ts'
import { renderLayout, summarize } from './layout.ts'
import { monthParam, type Query } from './query.ts'
import type { RankingPageDeps } from './ranking-page.ts'
import { editionLabel, renderAddress, renderBanner, renderIcon, renderMotd, renderPills, renderPlayers } from './server-parts.ts'
import { renderVerifiedMark } from './verified-mark.ts'

function renderStatus(status: ServerStatus | null) {
  if (!status) return html`<span class="status status-unknown">Not measured yet</span>`
  const when = html`<span class="muted">(checked ${formatUtc(status.lastPingAt)})</span>`
  return status.online
    ? html`<span class="status status-online">Online</span>, ${formatCount(status.playersOnline)} / ${formatCount(status.playersMax)} players ${when}`
    : html`<span class="status status-offline">Offline</span> ${when}`
}

export async function renderServerPage(deps: RankingPageDeps, server: Server, query: Query): Promise<string> {
  const { config } = deps
  const current = monthOf(deps.clock.now())
  const month = monthParam(query, deps.clock.now())
  const isCurrent = month === current
  const label = formatMonth(month)
  const { ranking, servers } = deps.store
  const ranked = await ranking.rankOf(server.id, month)
  const top = await ranking.topVoters(server.id, month, 10)
  const status = await servers.status(server.num)
  const images = await servers.imageHashes(server.num)
  const totalVotes = await ranking.totalVotes(server.id)
  const website = server.website ? safeUrl(server.website) : null
  const address = serverAddress(server)
  const base = `/serveur/${server.slug}`
  const monthHref = (m: string) => (m === current ? base : `${base}?month=${m}`)

  const body = html`<nav class="muted" aria-label="Breadcrumb"><a href="/">Ranking</a> › ${server.name}</nav>

<section class="card">
  <div class="server-head">${renderIcon(server.slug, images, 'large')}<div>
    <h1>${server.name}${renderVerifiedMark(server.verifiedAt !== null)}</h1>
    ${renderPills(server.edition, server.modes, server.version || status?.version || '')}
  </div></div>
  ${renderBanner(server.slug, server.name, images, false)}
  ${renderMotd(status?.styledMotd ?? null, 2)}
  <p>${ranked
    ? html`<strong>Rank ${ranked.rank}</strong> in ${label} with <strong>${formatCount(ranked.votes)}</strong> ${ranked.votes === 1 ? 'vote' : 'votes'}.`
    : html`Not listed in ${label}.`}</p>
  <p><a class="button button-primary" href="${base}/voter">Vote for ${server.name}</a></p>
</section>

<section class="card" aria-labelledby="join">
  <h2 id="join">Join the server</h2>
  <p>${renderAddress('server-address', address, server.name)} <span class="muted" data-copy-status="server-address" role="status" aria-live="polite"></span></p>
  <dl class="facts">
    <dt>Edition</dt><dd>${editionLabel(server.edition)}</dd>
    <dt>Version</dt><dd>${server.version || status?.version || html`<span class="muted">not given</span>`}</dd>
    <dt>Game modes</dt><dd>${server.modes.length ? server.modes.join(', ') : html`<span class="muted">not given</span>`}</dd>
    <dt>Website</dt><dd>${website ? html`<a href="${website}" rel="nofollow ugc noopener">${website}</a>` : html`<span class="muted">none</span>`}</dd>
    <dt>Status</dt><dd>${renderStatus(status)}</dd>
    <dt>All-time votes</dt><dd>${formatCount(totalVotes)}</dd>
  </dl>
</section>

${server.description ? html`<section class="card" aria-labelledby="about">
  <h2 id="about">About</h2>
  <p class="description">${server.description}</p>
</section>` : ''}

<section class="card" aria-labelledby="history-title">
  <h2 id="history-title">Players over time</h2>
  <p class="muted">Now: ${renderPlayers(status)}</p>
  <div id="history" class="stats-slot" data-slug="${server.slug}">
    <p><a href="/api/v1/servers/${server.slug}/history?range=7d&amp;format=csv" download>Download the last 7 days as CSV</a></p>
  </div>
</section>

<section class="card" aria-labelledby="top-voters">
  <h2 id="top-voters">Top voters, ${label}</h2>
  ${top.length
    ? html`<table class="table"><thead><tr><th scope="col" class="num">#</th><th scope="col">Player</th><th scope="col" class="num">Votes</th></tr></thead><tbody>
${top.map((v, i) => html`<tr><td class="num">${i + 1}</td><td>${v.pseudo}</td><td class="num">${formatCount(v.votes)}</td></tr>
`)}</tbody></table>`
    : html`<p class="muted">No vote ${isCurrent ? 'yet this month. Be the first!' : `in ${label}.`}</p>`}
  <nav class="month-nav" aria-label="Months">
    <a href="${monthHref(shiftMonth(month, -1))}" rel="nofollow">← ${formatMonth(shiftMonth(month, -1))}</a>
    ${isCurrent ? '' : html`<a href="${monthHref(shiftMonth(month, 1))}">${formatMonth(shiftMonth(month, 1))} →</a>`}
  </nav>
</section>`

  return renderLayout(config, {
    title: `${server.name}: Minecraft ${editionLabel(server.edition)} server`,
    description: server.description
      ? summarize(server.description)
      : `${server.name}, a Minecraft ${editionLabel(server.edition)} server${server.modes.length ? ` (${server.modes.join(', ')})` : ''}. Address ${address}. Vote for it and see who plays.`,
    path: isCurrent ? base : `${base}?month=${month}`,
    scripts: ['/assets/site.js', '/assets/stats-widgets.js'],
  }, body)
}
