import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import { monthOf } from '../servers/month.ts'
import type { RankingFilter, RankingRepo, ServersRepo } from '../servers/repo.ts'
import { EDITIONS } from '../servers/schema.ts'
import { html } from './html.ts'
import { monthLinks, renderLayout, type PageView } from './layout.ts'
import { editionParam, modeParam, monthParam, pageParam, SEARCH_MAX, searchParam, type Query } from './query.ts'
import { editionLabel } from './server-parts.ts'
import { renderServerRow } from './server-row.ts'

export const PAGE_SIZE = 50

export interface RankingPageDeps {
  config: Config
  clock: Clock
  store: { ranking: RankingRepo; servers: ServersRepo }
}

// A link to the ranking with these parameters; defaults are left out so every view has one URL.
function rankingHref(p: { month?: string; current: string; filter: RankingFilter; page?: number }): string {
  const q = new URLSearchParams()
  if (p.filter.search) q.set('search', p.filter.search)
  if (p.filter.edition) q.set('edition', p.filter.edition)
  if (p.filter.mode) q.set('mode', p.filter.mode)
  if (p.month && p.month !== p.current) q.set('month', p.month)
  if (p.page && p.page > 1) q.set('page', String(p.page))
  const s = q.toString()
  return s ? `/?${s}` : '/'
}

export async function renderRankingPage(deps: RankingPageDeps, view: PageView, query: Query): Promise<string> {
  const { config } = deps
  const { tr } = view
  const current = monthOf(deps.clock.now())
  const month = monthParam(query, deps.clock.now())
  const filter: RankingFilter = { edition: editionParam(query), mode: modeParam(query, config), search: searchParam(query) }
  const page = pageParam(query)
  const { total, rows } = await deps.store.ranking.page(month, filter, PAGE_SIZE, (page - 1) * PAGE_SIZE)
  const listings = await deps.store.servers.listings(rows.map((r) => r.id))
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE))
  const filtered = Boolean(filter.edition || filter.mode || filter.search)
  const isCurrent = month === current
  const label = tr.month(month)
  const href = (over: { month?: string; page?: number }) => rankingHref({ current, filter, month, ...over })
  const first = (page - 1) * PAGE_SIZE + 1
  const range = { first, last: first + rows.length - 1, total, month: label }
  // One server on the page (a search that finds one, a last page of one) is said in the singular.
  const caption = rows.length === 1
    ? (filtered ? 'ranking.captionFilteredSingle' : 'ranking.captionSingle')
    : (filtered ? 'ranking.captionFiltered' : 'ranking.caption')

  const list = rows.length
    ? html`<p class="muted list-caption" id="list-caption">${tr.t(caption, range)}</p>
<ol class="server-list" aria-labelledby="list-caption">
${rows.map((r, i) => renderServerRow(tr, r, listings[i], `/serveur/${r.slug}${isCurrent ? '' : `?month=${month}`}`))}</ol>
<p class="visually-hidden" id="copy-status" role="status" aria-live="polite"></p>`
    : html`<p class="notice">${total > 0
      ? tr.html('ranking.noPage', { page, link: html`<a href="${href({ page: 1 })}">${tr.t('ranking.firstPage')}</a>` })
      : filtered ? tr.t('ranking.noMatch') : isCurrent ? tr.t('ranking.empty') : tr.t('ranking.emptyPast', { month: label })}</p>`

  // Past the end, the notice leads back; a pager there ("Page 9 of 2", Previous to page 8) would
  // only lead to more missing pages.
  const pager = pages > 1 && page <= pages

  // The filters fold away behind their summary (no script needed), so that on a phone the first
  // servers are on the first screen; they stay open while a filter is on.
  const body = html`<h1>${isCurrent ? tr.t('ranking.title') : tr.t('ranking.titleMonth', { month: label })}</h1>
<p class="muted">${tr.t('ranking.intro', { month: label })} ${tr.t(isCurrent ? 'ranking.restarts' : 'ranking.over')}</p>

<details class="filters-box"${filtered ? html` open` : ''}>
<summary class="button">${tr.t(filtered ? 'ranking.filtersOn' : 'ranking.filters')}</summary>
<form class="card filters" method="get" action="/" role="search" aria-label="${tr.t('ranking.filterLabel')}">
  <div class="field"><label for="search">${tr.t('ranking.search')}</label><input id="search" name="search" type="search" maxlength="${SEARCH_MAX}" value="${filter.search ?? ''}" placeholder="${tr.t('ranking.searchExample')}"></div>
  <div class="field"><label for="edition">${tr.t('common.edition')}</label><select id="edition" name="edition">
    <option value="">${tr.t('ranking.allEditions')}</option>
    ${EDITIONS.map((e) => html`<option value="${e}"${filter.edition === e ? html` selected` : ''}>${editionLabel(tr, e)}</option>`)}
  </select></div>
  <div class="field"><label for="mode">${tr.t('ranking.mode')}</label><select id="mode" name="mode">
    <option value="">${tr.t('ranking.allModes')}</option>
    ${config.servers.modes.map((m) => html`<option value="${m}"${filter.mode === m ? html` selected` : ''}>${m}</option>`)}
  </select></div>
  ${isCurrent ? '' : html`<input type="hidden" name="month" value="${month}">`}
  <button type="submit" class="button-primary">${tr.t('ranking.filter')}</button>
</form>
</details>

<nav class="month-nav" aria-label="${tr.t('common.months')}">
  ${monthLinks(tr, month, isCurrent, (m) => href({ month: m, page: 1 }))}
  ${filtered ? html`<a href="${rankingHref({ current, filter: {}, month })}">${tr.t('ranking.clear')}</a>` : ''}
</nav>

${list}

${pager ? html`<nav class="pager" aria-label="${tr.t('ranking.pages')}">
  ${page > 1 ? html`<a class="button" rel="prev" href="${href({ page: page - 1 })}">${tr.t('ranking.previous')}</a>` : html`<span></span>`}
  <span class="muted">${tr.t('ranking.page', { page, pages })}</span>
  ${page < pages ? html`<a class="button" rel="next" href="${href({ page: page + 1 })}">${tr.t('ranking.next')}</a>` : html`<span></span>`}
</nav>` : ''}

<section class="card" aria-labelledby="global-title">
  <h2 id="global-title">${tr.t('ranking.globalTitle')}</h2>
  <div id="global-players" class="stats-slot" data-range="24h"></div>
</section>`

  return renderLayout(view, {
    title: isCurrent ? config.site.name : tr.t('ranking.pageTitle', { month: label }),
    description: tr.t(isCurrent ? 'ranking.description' : 'ranking.descriptionPast', { month: label }),
    path: rankingHref({ current, filter, month, page }),
    // A filtered list, or a page past its end ("There is no page 9"), is not a page to index.
    noindex: filtered || (rows.length === 0 && total > 0),
    scripts: ['/assets/site.js', '/assets/stats-widgets.js'],
  }, body)
}
