import { isolateText } from '../../web/assets/translate.js'
import { monthOf } from '../servers/month.ts'
import type { Awaitable } from '../db/store.ts'
import type { RankedServer, Server, ServerStatus } from '../servers/repo.ts'
import { serverAddress } from '../servers/view.ts'
import type { Tr } from './text.ts'
import { html, safeUrl } from './html.ts'
import { monthLinks, renderLayout, summarize, type PageView } from './layout.ts'
import { monthParam, type Query } from './query.ts'
import type { RankingPageDeps } from './ranking-page.ts'
import { editionLabel, renderAddress, renderBanner, renderIcon, renderMotd, renderPills, renderPlayers } from './server-parts.ts'
import { renderVerifiedMark } from './verified-mark.ts'

function renderStatus(tr: Tr, status: ServerStatus | null) {
  if (!status) return html`<span class="status status-unknown">${tr.t('server.status.unknown')}</span>`
  const when = html`<span class="muted">${tr.t('server.status.checked', { time: tr.dateTime(status.lastPingAt) })}</span>`
  return status.online
    ? html`<span class="status status-online">${tr.t('server.status.online')}</span>, ${tr.t('server.status.players', { online: status.playersOnline, max: status.playersMax })} ${when}`
    : html`<span class="status status-offline">${tr.t('server.status.offline')}</span> ${when}`
}

export interface ServerPageDeps extends RankingPageDeps {
  // The server's rank and votes in a month (src/pages/page-cache.ts keeps the month's ranking).
  rankOf(serverId: string, month: string): Awaitable<RankedServer | null>
}

export async function renderServerPage(deps: ServerPageDeps, view: PageView, server: Server, query: Query): Promise<string> {
  const { config } = deps
  const { tr } = view
  const current = monthOf(deps.clock.now())
  const month = monthParam(query, deps.clock.now())
  const isCurrent = month === current
  const label = tr.month(month)
  const { ranking, servers } = deps.store
  const ranked = await deps.rankOf(server.id, month)
  const top = await ranking.topVoters(server.id, month, 10)
  const status = await servers.status(server.num)
  const images = await servers.imageHashes(server.num)
  const totalVotes = await ranking.totalVotes(server.id)
  const website = server.website ? safeUrl(server.website) : null
  const address = serverAddress(server)
  const base = `/serveur/${server.slug}`
  const monthHref = (m: string) => (m === current ? base : `${base}?month=${m}`)
  const edition = editionLabel(tr, server.edition)
  // Each its own words: French agrees them with the fact ("Version" feminine, "Modes" plural).
  const notGiven = (key: 'server.versionNotGiven' | 'server.modesNotGiven') => html`<span class="muted">${tr.t(key)}</span>`

  const body = html`<nav class="muted crumbs" aria-label="${tr.t('common.breadcrumb')}"><a href="/">${tr.t('layout.ranking')}</a> › ${isolateText(server.name)}</nav>

<section class="card">
  <div class="server-head">${renderIcon(server.slug, images, 'large')}<div>
    <h1>${isolateText(server.name)}${renderVerifiedMark(tr, server.verifiedAt !== null)}</h1>
    ${renderPills(tr, server.edition, server.modes, server.version || status?.version || '')}
  </div></div>
  ${renderBanner(tr, server.slug, server.name, images, false)}
  ${renderMotd(status?.styledMotd ?? null, 2)}
  <p>${ranked
    ? tr.countHtml('server.rankLine', ranked.votes, {
      rank: html`<strong>${tr.n('server.rank', ranked.rank)}</strong>`, month: label, count: html`<strong>${tr.number(ranked.votes)}</strong>`,
    })
    : tr.t('server.notRanked', { month: label })}</p>
  <p><a class="button button-primary button-wraps" href="${base}/voter">${tr.t('common.voteFor', { name: server.name })}</a></p>
</section>

<section class="card" aria-labelledby="join">
  <h2 id="join">${tr.t('server.join')}</h2>
  <p>${renderAddress(tr, 'server-address', address, server.name)} <span class="muted" data-copy-status="server-address" role="status" aria-live="polite"></span></p>
  <dl class="facts">
    <dt>${tr.t('common.edition')}</dt><dd>${edition}</dd>
    <dt>${tr.t('server.version')}</dt><dd>${server.version || status?.version || notGiven('server.versionNotGiven')}</dd>
    <dt>${tr.t('server.modes')}</dt><dd>${server.modes.length ? server.modes.join(', ') : notGiven('server.modesNotGiven')}</dd>
    <dt>${tr.t('server.website')}</dt><dd>${website ? html`<a href="${website}" rel="nofollow ugc noopener">${website}</a>` : html`<span class="muted">${tr.t('server.none')}</span>`}</dd>
    <dt>${tr.t('server.status')}</dt><dd>${renderStatus(tr, status)}</dd>
    <dt>${tr.t('server.totalVotes')}</dt><dd>${tr.number(totalVotes)}</dd>
  </dl>
</section>

${server.description ? html`<section class="card" aria-labelledby="about">
  <h2 id="about">${tr.t('server.about')}</h2>
  <p class="description">${server.description}</p>
</section>` : ''}

<section class="card" aria-labelledby="history-title">
  <h2 id="history-title">${tr.t('server.history')}</h2>
  <p class="muted">${tr.html('server.now', { players: renderPlayers(tr, status) })}</p>
  <div id="history" class="stats-slot" data-slug="${server.slug}">
    <p><a href="/api/v1/servers/${server.slug}/history?range=7d&amp;format=csv" download>${tr.t('server.csv')}</a></p>
  </div>
</section>

<section class="card" aria-labelledby="top-voters">
  <h2 id="top-voters">${tr.t('server.topVoters', { month: label })}</h2>
  ${top.length
    ? html`<table class="table"><thead><tr><th scope="col" class="num">#</th><th scope="col">${tr.t('server.player')}</th><th scope="col" class="num">${tr.t('server.votes')}</th></tr></thead><tbody>
${top.map((v, i) => html`<tr><td class="num">${i + 1}</td><td>${v.pseudo}</td><td class="num">${tr.number(v.votes)}</td></tr>
`)}</tbody></table>`
    : html`<p class="muted">${isCurrent ? tr.t('server.noVoteYet') : tr.t('server.noVoteIn', { month: label })}</p>`}
  <nav class="month-nav" aria-label="${tr.t('common.months')}">
    ${monthLinks(tr, month, isCurrent, monthHref)}
  </nav>
</section>`

  return renderLayout(view, {
    title: tr.t('server.title', { name: server.name, edition }),
    description: server.description
      ? summarize(server.description)
      : server.modes.length
        ? tr.t('server.descriptionModes', { name: server.name, edition, modes: server.modes.join(', '), address })
        : tr.t('server.description', { name: server.name, edition, address }),
    path: isCurrent ? base : `${base}?month=${month}`,
    scripts: ['/assets/site.js', '/assets/stats-widgets.js'],
  }, body)
}
