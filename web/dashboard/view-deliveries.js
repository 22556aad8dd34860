// The Deliveries tab: one row per attempt (newest first), filters by channel and outcome, paging,
// Redeliver, and a refresh every few seconds while the tab is open and the page visible.
import { get, post, serverPath } from './api.js'
import { announce, formatDuration, formatTime, h, relativeTime, replace, timeElement } from './dom.js'
import { CHANNEL_NAMES, OUTCOMES, failureLabel } from './explain.js'
import { actionButton, field } from './forms.js'
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
  if (d.test) return 'Test, not retried'
  const text = `${d.seriesAttempt} of ${perSeries}`
  // A rate-limited try is made again without using up its place in the schedule.
  if (d.rateLimited) return [text, h('div', { class: 'muted small' }, 'rate limited · not counted')]
  return d.redelivery ? [text, h('div', { class: 'muted small' }, `redelivery · #${d.attempt} overall`)] : text
}

/** @param {DeliveryAttempt} d */
function details(d) {
  if (d.status === 'pending') return h('span', { class: 'muted' }, 'Sending…')
  if (!d.error) return d.httpStatus ? `HTTP ${d.httpStatus}` : h('span', { class: 'muted' }, 'OK')
  return [h('strong', { class: 'failure-label' }, failureLabel(d.error, d.httpStatus)), h('div', { class: 'failure-text' }, d.error)]
}

/** @param {DeliveryAttempt} d */
function nextAttempt(d) {
  if (d.nextAttemptAt) {
    const future = new Date(d.nextAttemptAt).getTime() > Date.now()
    return [timeElement(d.nextAttemptAt, { short: true }), future ? h('span', { class: 'relative' }, relativeTime(d.nextAttemptAt)) : null]
  }
  if (d.status === 'gave_up') return 'None: gave up'
  if (d.status === 'failed' && d.test) return 'None (a test)'
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

  const tbody = h('tbody')
  const table = dataTable('Delivery attempts, newest first',
    ['Time (UTC)', 'Channel', 'Kind', 'Pseudo', 'Attempt', 'Outcome', 'Error or status', ['Duration', true], 'Next attempt', ''], tbody, 'table deliveries')
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
  const filterBar = h('form', { class: 'filters deliveries-filters', role: 'search', 'aria-label': 'Filter the attempts', onSubmit: (/** @type {Event} */ e) => e.preventDefault() },
    select('channel', 'Channel', [{ value: '', label: 'All channels' }, { value: 'votifier', label: 'Votifier' }, { value: 'webhook', label: 'Webhook' }, { value: 'discord', label: 'Discord' }]),
    select('status', 'Outcome', [{ value: '', label: 'All outcomes' }, ...Object.entries(OUTCOMES).map(([value, label]) => ({ value, label }))]))

  /**
   * @param {DeliveryAttempt[]} items
   * @param {number} perSeries
   */
  function rows(items, perSeries) {
    // Redeliver sits on the newest attempt of each delivery on the page.
    const newest = new Map()
    for (const d of items) if (!newest.has(d.deliveryId)) newest.set(d.deliveryId, d.id)
    return items.map((d) => h('tr', { dataset: { attemptId: d.id, status: d.status } },
      cell('Time', timeElement(d.startedAt, { short: true })),
      cell('Channel', CHANNEL_NAMES[d.channel]),
      cell('Kind', d.test ? h('span', { class: 'pill' }, 'Test') : 'Vote'),
      cell('Pseudo', d.pseudo),
      cell('Attempt', attemptText(d, perSeries)),
      cell('Outcome', h('span', { class: `outcome outcome-${d.status}` }, OUTCOMES[d.status])),
      cell('Error or status', details(d), { class: 'cell-details' }),
      cell('Duration', formatDuration(d.durationMs), { class: 'num' }),
      cell('Next attempt', nextAttempt(d)),
      cell('', !d.test && d.status !== 'pending' && newest.get(d.deliveryId) === d.id
        ? actionButton('Redeliver', async () => {
          const { delivery } = /** @type {RedeliverAnswer} */ (await post(serverPath(server.slug, `/deliveries/${encodeURIComponent(d.deliveryId)}/redeliver`)))
          announce(`Redelivery started: attempt ${delivery.nextAttempt} of the ${CHANNEL_NAMES[d.channel]} delivery for ${d.pseudo}.`)
          await load()
        }, { className: 'button-small', ariaLabel: `Redeliver the ${CHANNEL_NAMES[d.channel]} delivery for ${d.pseudo}` })
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
    // The refresh redraws the rows: keep the focus on the same button if it is still there.
    const focused = document.activeElement?.closest('tr')?.dataset.attemptId
    empty.hidden = page.deliveries.length > 0
    table.hidden = !page.deliveries.length
    empty.textContent = filters.channel || filters.status
      ? 'No attempt matches these filters.'
      : 'No delivery yet. Each vote and each test appears here, one row per attempt.'
    replace(tbody, rows(page.deliveries, page.attemptsPerSeries))
    table.refit()
    const refocus = focused ? tbody.querySelector(`tr[data-attempt-id="${CSS.escape(focused)}"] button`) : null
    if (refocus instanceof HTMLElement) refocus.focus()
    pager.hidden = cursors.length === 1 && !page.next
    replace(pager,
      cursors.length > 1 ? h('button', { type: 'button', class: 'button-small', onClick: () => { cursors.pop(); void load() } }, '← Newer') : h('span'),
      h('span', { class: 'muted small' }, `Page ${cursors.length}`),
      page.next ? h('button', { type: 'button', class: 'button-small', onClick: () => { cursors.push(page.next); void load() } }, 'Older →') : h('span'))
    updated.textContent = `Refreshes by itself every ${REFRESH_MS / 1000} s while this tab is open · updated ${formatTime(new Date().toISOString())}`
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
      h('h2', { id: 'attempts-title' }, 'Delivery attempts'),
      h('p', { class: 'muted' }, 'One row per attempt to push a vote to your Votifier listener or webhook. A failed attempt is retried on a schedule of about 9 hours; after the last one the delivery gives up, and Redeliver sends it again.'),
      filterBar, updated, empty, table, pager))
  schedule()
  return () => {
    stopped = true
    document.body.classList.remove('wide-layout')
    clearTimeout(timer)
    document.removeEventListener('visibilitychange', onVisible)
  }
}
