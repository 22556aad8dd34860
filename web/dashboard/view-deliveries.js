// The Deliveries tab: one row per attempt (newest first), filters by channel and outcome, paging,
// Redeliver, and a refresh every few seconds while the tab is open and the page visible.
import { isolateText } from '../translate.js'
import { get, post, serverPath } from './api.js'
import { announce, formatDuration, formatTime, h, relativeTime, replace, timeElement } from './dom.js'
import { CHANNEL_NAMES, OUTCOMES, failureLabel } from './explain.js'
import { actionButton, field } from './forms.js'
import { t, tn, tr } from './i18n.js'
import { testPanel } from './test-panel.js'
import { cell, dataTable } from './table.js'
/** @import { Stop } from './app.js' */
/** @import { DeliveriesAnswer, DeliveryAttempt, RedeliverAnswer, Server } from '../types/api' */

const PAGE_SIZE = 25
const REFRESH_MS = 3000

/**
 * @param {DeliveryAttempt} d
 * @param {number} perSeries attempts in a series
 */
function attemptText(d, perSeries) {
  if (d.test) return t('dash.deliveries.testAttempt')
  const text = t('dash.deliveries.attemptOf', { attempt: d.seriesAttempt, total: perSeries })
  // A rate-limited try is made again without using up its place in the schedule.
  if (d.rateLimited) return [text, h('div', { class: 'muted small' }, t('dash.deliveries.rateLimited'))]
  return d.redelivery ? [text, h('div', { class: 'muted small' }, t('dash.deliveries.redelivery', { attempt: d.attempt }))] : text
}

// The failure in a few words, above the delivery's own record of it (English, as the site wrote it).
/** @param {DeliveryAttempt} d */
function details(d) {
  if (d.status === 'pending') return h('span', { class: 'muted' }, t('dash.deliveries.sending'))
  if (!d.error) return d.httpStatus ? t('dash.failure.http', { status: String(d.httpStatus) }) : h('span', { class: 'muted' }, t('dash.site.ok'))
  return [h('strong', { class: 'failure-label' }, failureLabel(tr, d.error, d.httpStatus)), h('div', { class: 'failure-text', lang: 'en' }, d.error)]
}

/** @param {DeliveryAttempt} d */
function nextAttempt(d) {
  if (d.nextAttemptAt) {
    const future = new Date(d.nextAttemptAt).getTime() > Date.now()
    return [timeElement(d.nextAttemptAt, { short: true }), future ? h('span', { class: 'relative' }, relativeTime(d.nextAttemptAt)) : null]
  }
  if (d.status === 'gave_up') return t('dash.deliveries.noneGaveUp')
  if (d.status === 'failed' && d.test) return t('dash.deliveries.noneTest')
  return h('span', { class: 'muted' }, '—')
}

/**
 * @param {HTMLElement} el
 * @param {Server} server
 * @returns {Promise<Stop>}
 */
export async function renderDeliveriesTab(el, server) {
  const filters = { channel: '', status: '' }
  /** @type {Array<string | null>} */
  const cursors = [null] // the `before` of each page seen; the last one is shown
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  let stopped = false
  // Attempts in a full series (1 + the site's retries), as the last page loaded gives it.
  let attemptsPerSeries = 1

  const tbody = h('tbody')
  const columns = {
    time: t('dash.deliveries.time'), channel: t('dash.deliveries.channel'), kind: t('dash.deliveries.kind'), pseudo: t('dash.deliveries.pseudo'),
    attempt: t('dash.deliveries.attempt'), outcome: t('dash.site.outcome'), details: t('dash.deliveries.details'), duration: t('dash.site.duration'),
    next: t('dash.deliveries.next'),
  }
  const table = dataTable(t('dash.deliveries.caption'),
    [t('dash.deliveries.timeUtc'), columns.channel, columns.kind, columns.pseudo, columns.attempt, columns.outcome, columns.details, [columns.duration, true], columns.next, ''],
    tbody, 'table deliveries')
  const empty = h('p', { class: 'muted empty', hidden: true })
  const pager = h('div', { class: 'pager' })
  const updated = h('p', { class: 'muted small refresh-note' })

  /**
   * @param {keyof typeof filters} name
   * @param {string} label
   * @param {Array<{ value: string, label: string }>} options
   */
  const select = (name, label, options) => {
    const f = field({ name, label, type: 'select', value: '', options })
    f.querySelector('select')?.addEventListener('change', (event) => {
      filters[name] = /** @type {HTMLSelectElement} */ (event.target).value
      cursors.splice(0, cursors.length, null)
      void load()
    })
    return f
  }
  const filterBar = h('form', { class: 'filters deliveries-filters', role: 'search', 'aria-label': t('dash.deliveries.filter'), onSubmit: (/** @type {Event} */ e) => e.preventDefault() },
    select('channel', columns.channel, [{ value: '', label: t('dash.deliveries.allChannels') }, ...Object.entries(CHANNEL_NAMES).map(([value, key]) => ({ value, label: t(key) }))]),
    select('status', columns.outcome, [{ value: '', label: t('dash.deliveries.allOutcomes') }, ...Object.entries(OUTCOMES).map(([value, key]) => ({ value, label: t(key) }))]))

  /**
   * @param {DeliveryAttempt[]} items
   * @param {number} perSeries
   */
  function rows(items, perSeries) {
    // Redeliver sits on the newest attempt of each delivery on the page.
    const newest = new Map()
    for (const d of items) if (!newest.has(d.deliveryId)) newest.set(d.deliveryId, d.id)
    return items.map((d) => h('tr', { dataset: { attemptId: d.id, status: d.status } },
      cell(columns.time, timeElement(d.startedAt, { short: true })),
      cell(columns.channel, t(CHANNEL_NAMES[d.channel])),
      cell(columns.kind, d.test ? h('span', { class: 'pill' }, t('dash.test.title')) : t('dash.deliveries.vote')),
      cell(columns.pseudo, isolateText(d.pseudo)),
      cell(columns.attempt, attemptText(d, perSeries)),
      cell(columns.outcome, h('span', { class: `outcome outcome-${d.status}` }, t(OUTCOMES[d.status]))),
      cell(columns.details, details(d), { class: 'cell-details' }),
      cell(columns.duration, formatDuration(d.durationMs), { class: 'num' }),
      cell(columns.next, nextAttempt(d)),
      cell('', !d.test && d.status !== 'pending' && newest.get(d.deliveryId) === d.id
        ? actionButton(t('dash.deliveries.redeliver'), async () => {
          const { delivery } = /** @type {RedeliverAnswer} */ (await post(serverPath(server.slug, `/deliveries/${encodeURIComponent(d.deliveryId)}/redeliver`)))
          announce(t('dash.deliveries.redelivered', { attempt: delivery.nextAttempt, channel: t(CHANNEL_NAMES[d.channel]), pseudo: d.pseudo }))
          await load()
        }, { className: 'button-small', ariaLabel: t('dash.deliveries.redeliverLabel', { channel: t(CHANNEL_NAMES[d.channel]), pseudo: d.pseudo }) })
        : null)))
  }

  async function load() {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) })
    const before = cursors.at(-1)
    if (before) query.set('before', before)
    if (filters.channel) query.set('channel', filters.channel)
    if (filters.status) query.set('status', filters.status)
    const page = /** @type {DeliveriesAnswer} */ (await get(`${serverPath(server.slug, '/deliveries')}?${query}`))
    if (stopped) return
    // The refresh redraws the rows and the pager: keep the focus on the same button if it is still
    // there (a row's Redeliver), or on the pager's button that moves the same way.
    const focused = document.activeElement?.closest('tr')?.dataset.attemptId
    const paging = document.activeElement instanceof HTMLElement && pager.contains(document.activeElement) ? document.activeElement.dataset.step : undefined
    empty.hidden = page.deliveries.length > 0
    table.hidden = !page.deliveries.length
    empty.textContent = t(filters.channel || filters.status ? 'dash.deliveries.noMatch' : 'dash.deliveries.none')
    attemptsPerSeries = page.attemptsPerSeries
    replace(tbody, rows(page.deliveries, page.attemptsPerSeries))
    table.refit()
    const refocus = focused ? tbody.querySelector(`tr[data-attempt-id="${CSS.escape(focused)}"] button`) : null
    if (refocus instanceof HTMLElement) refocus.focus()
    pager.hidden = cursors.length === 1 && !page.next
    replace(pager,
      cursors.length > 1 ? h('button', { type: 'button', class: 'button-small', dataset: { step: 'newer' }, onClick: () => { cursors.pop(); void load() } }, t('dash.deliveries.newer')) : h('span'),
      h('span', { class: 'muted small' }, t('dash.deliveries.page', { page: cursors.length })),
      page.next ? h('button', { type: 'button', class: 'button-small', dataset: { step: 'older' }, onClick: () => { cursors.push(page.next); void load() } }, t('dash.deliveries.older')) : h('span'))
    // On the first or the last page the button pressed is gone: the other one takes the focus.
    const pagerButton = paging ? pager.querySelector(`button[data-step="${paging}"]`) ?? pager.querySelector('button') : null
    if (pagerButton instanceof HTMLElement) pagerButton.focus()
    updated.textContent = t('dash.deliveries.refreshes', { seconds: REFRESH_MS / 1000, time: formatTime(new Date().toISOString()) })
  }

  // Refresh only while the page is visible; coming back to it refreshes at once.
  const schedule = () => {
    clearTimeout(timer)
    timer = setTimeout(async () => {
      if (document.visibilityState === 'visible') await load().catch(() => {})
      if (!stopped) schedule()
    }, REFRESH_MS)
  }
  const onVisible = () => { if (document.visibilityState === 'visible' && !stopped) void load().catch(() => {}) }
  document.addEventListener('visibilitychange', onVisible)

  document.body.classList.add('wide-layout')
  await load()
  replace(el,
    testPanel(server, { onDone: () => load().catch(() => {}), compact: true }),
    h('section', { class: 'card', 'aria-labelledby': 'attempts-title' },
      h('h2', { id: 'attempts-title' }, t('dash.deliveries.title')),
      h('p', { class: 'muted' }, tn('dash.deliveries.lead', attemptsPerSeries)),
      filterBar, updated, empty, table, pager))
  schedule()
  return () => {
    stopped = true
    document.body.classList.remove('wide-layout')
    clearTimeout(timer)
    document.removeEventListener('visibilitychange', onVisible)
  }
}
