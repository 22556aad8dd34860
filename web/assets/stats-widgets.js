// Player-count widgets of the public pages, filled from the public statistics API:
//   <div id="history" data-slug="…" [data-range="7d"]>  a server's history chart with a range
//     selector, uptime, peak, average and the CSV download link;
//   <div id="global-players" [data-edition="java"] [data-mode="skyblock"]>  players on all listed
//     servers now, the 24 h peak and a small chart.
// Charts are drawn with uPlot, served from the binary. All text goes through textContent; words,
// numbers and the chart's time axis come from the page's translator (web/assets/translate.js),
// the same formats as the pages, in the visitor's own time zone.
import { errorText, pageTranslator } from './translate.js'

const VERSION = '1.6.32'
const UPLOT_JS = `/assets/vendor/uplot-${VERSION}.min.js`
const UPLOT_CSS = `/assets/vendor/uplot-${VERSION}.min.css`
const OWN_CSS = '/assets/stats-widgets.css'
const RANGES = ['24h', '7d', '30d', '90d', '1y', 'all']
/** @typedef {import('../types/api').HistoryAnswer} HistoryAnswer */
/** @typedef {import('uplot')} UPlot */
/** @type {Record<string, number>} */
const STEP_SECONDS = { '5 min': 300, '1 h': 3600, '6 h': 21600, '1 d': 86400, '1 w': 604800 }
const tr = pageTranslator('local')
const number = tr.number
const DAY = 86_400

// The labels of the time axis, in the language's formats: hours ("14:00", with the day under the
// first one and under midnight) while a tick is less than a day apart, then days ("22 Nov"),
// then months ("Nov 2026"). uPlot gives the ticks in seconds and the step it chose.
/**
 * @param {UPlot} u
 * @param {number[]} splits
 * @param {number} axis
 * @param {number} space
 * @param {number} step
 */
function timeTicks(u, splits, axis, space, step) {
  return splits.map((s, i) => {
    const at = new Date(s * 1000)
    if (step >= 28 * DAY) return tr.shortMonth(at)
    if (step >= DAY) return tr.shortDate(at)
    const time = tr.time(at)
    return i === 0 || (at.getHours() === 0 && at.getMinutes() === 0) ? `${time}\n${tr.shortDate(at)}` : time
  })
}

/** @param {string} href */
function stylesheet(href) {
  if (document.querySelector(`link[href="${href}"]`)) return
  const link = document.createElement('link')
  link.rel = 'stylesheet'
  link.href = href
  document.head.append(link)
}

/** @type {Promise<typeof import('uplot')> | null} */
let uplotLoading = null
/** @returns {Promise<typeof import('uplot')>} */
function loadUplot() {
  if (window.uPlot) return Promise.resolve(window.uPlot)
  stylesheet(UPLOT_CSS)
  uplotLoading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = UPLOT_JS
    script.onload = () => (window.uPlot ? resolve(window.uPlot) : reject(new Error('uPlot could not be loaded')))
    script.onerror = () => reject(new Error('uPlot could not be loaded'))
    document.head.append(script)
  })
  return uplotLoading
}

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string | null} className
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, className, text) {
  const node = document.createElement(tag)
  if (className) node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

// A failure of the statistics API, said in the page's language.
class Unavailable extends Error {}

/**
 * @param {string} url
 * @returns {Promise<HistoryAnswer>}
 */
async function getJson(url) {
  const res = await fetch(url, { headers: { accept: 'application/json' } }).catch(() => null)
  if (!res) throw new Unavailable(errorText(tr, { code: 'NETWORK', message: '' }))
  const body = /** @type {HistoryAnswer | import('../types/api').ErrorBody | null} */ (await res.json().catch(() => null))
  if (res.ok && body?.ok) return body
  throw new Unavailable(body?.ok === false ? errorText(tr, body.error) : `HTTP ${res.status}`)
}

/** @param {unknown} e */
const unavailable = (e) => tr.t('script.unavailable', { reason: e instanceof Unavailable ? e.message : tr.t('script.unknownError') })

// uPlot columns from the points; a slice with no measurement becomes a break in the line
// instead of a straight segment drawn across the gap.
/**
 * @param {HistoryAnswer} history
 * @returns {[number[], Array<number | null>, Array<number | null>]}
 */
function columns(history) {
  const step = STEP_SECONDS[history.step] ?? 300
  /** @type {number[]} */
  const xs = []
  /** @type {Array<number | null>} */
  const avg = [], max = []
  let prev = null
  for (const p of history.points) {
    const t = Date.parse(p.t) / 1000
    if (prev !== null && t - prev > step) { xs.push(prev + step); avg.push(null); max.push(null) }
    xs.push(t); avg.push(p.avg); max.push(p.max)
    prev = t
  }
  return [xs, avg, max]
}

// Keeps a chart as wide as its box (phones rotate, windows resize).
/**
 * @param {UPlot} chart
 * @param {HTMLElement} box
 * @param {() => number} height
 */
function fit(chart, box, height) {
  const resize = () => chart.setSize({ width: Math.max(200, box.clientWidth), height: height() })
  if (window.ResizeObserver) new ResizeObserver(resize).observe(box)
  else window.addEventListener('resize', resize)
}

/**
 * @param {HTMLElement} list
 * @param {string} label
 */
function figure(list, label) {
  const item = el('div', 'vl-figure')
  const value = el('dd', 'vl-figure-value', '–')
  item.append(el('dt', 'vl-figure-label', label), value)
  list.append(item)
  return value
}

/** @param {HTMLElement} root */
async function historyWidget(root) {
  const slug = root.dataset.slug
  if (!slug) return
  stylesheet(OWN_CSS)
  const api = `/api/v1/servers/${encodeURIComponent(slug)}/history`
  let range = root.dataset.range && RANGES.includes(root.dataset.range) ? root.dataset.range : '24h'

  root.classList.add('vl-history')
  const selector = el('div', 'vl-ranges')
  selector.setAttribute('role', 'group')
  selector.setAttribute('aria-label', tr.t('script.range'))
  const buttons = RANGES.map((r) => {
    const b = el('button', 'vl-range', tr.find(`script.range.${r}`) ?? r)
    b.type = 'button'
    b.dataset.range = r
    b.addEventListener('click', () => { range = r; show() })
    selector.append(b)
    return b
  })
  const figures = el('dl', 'vl-figures')
  const uptime = figure(figures, tr.t('script.uptime'))
  const peak = figure(figures, tr.t('script.peak'))
  const average = figure(figures, tr.t('script.average'))
  const chartBox = el('div', 'vl-chart')
  const status = el('p', 'vl-status')
  status.setAttribute('aria-live', 'polite')
  const csv = el('a', 'vl-csv', tr.t('script.csv'))
  csv.setAttribute('download', '')
  const note = el('p', 'vl-note', tr.t('script.note'))
  root.replaceChildren(selector, figures, chartBox, status, csv, note)

  const height = () => (chartBox.clientWidth < 500 ? 200 : 260)
  const uPlot = await loadUplot()
  const chart = new uPlot({
    width: Math.max(200, chartBox.clientWidth), height: height(),
    scales: { y: { range: (u, min, max) => [0, Math.max(5, max * 1.1)] } },
    series: [
      { label: tr.t('script.time'), value: (u, v) => (v == null ? '–' : tr.dateTime(v * 1000)) },
      { label: tr.t('script.average'), stroke: '#2e7d32', fill: 'rgba(46,125,50,0.14)', width: 2, value: (u, v) => (v == null ? '–' : number(v)) },
      { label: tr.t('script.peak'), stroke: '#1565c0', dash: [5, 4], width: 1.5, value: (u, v) => (v == null ? '–' : number(v)) },
    ],
    axes: [{ values: timeTicks }, { label: tr.t('script.players'), size: 52, values: (u, splits) => splits.map(number) }],
  }, [[], [], []], chartBox)
  fit(chart, chartBox, height)

  let shown = 0
  async function show() {
    const request = ++shown
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.range === range))
    csv.href = `${api}?range=${range}&format=csv`
    status.textContent = tr.t('script.loading')
    try {
      const h = await getJson(`${api}?range=${range}`)
      if (request !== shown) return
      chart.setData(columns(h))
      uptime.textContent = h.summary.points ? tr.percent(h.summary.uptime) : '–'
      peak.textContent = h.summary.points ? number(h.summary.peak) : '–'
      average.textContent = h.summary.points ? number(h.summary.avg) : '–'
      status.textContent = h.points.length ? '' : tr.t('script.noData')
    } catch (e) {
      if (request === shown) status.textContent = unavailable(e)
    }
  }
  await show()
}

/** @param {HTMLElement} root */
async function globalWidget(root) {
  stylesheet(OWN_CSS)
  const params = new URLSearchParams({ range: '24h' })
  if (root.dataset.edition) params.set('edition', root.dataset.edition)
  if (root.dataset.mode) params.set('mode', root.dataset.mode)
  root.classList.add('vl-global')
  const now = el('strong', 'vl-global-now', '–')
  const line = el('p', 'vl-global-line')
  // The count is filled in later: the sentence is written again around it.
  /** @param {number} count */
  const say = (count) => line.replaceChildren(...tr.countParts('script.onlineNow', count, { count: now }).map((p) => (p instanceof Node ? p : String(p))))
  say(0)
  const peak = el('p', 'vl-global-peak')
  const chartBox = el('div', 'vl-global-chart')
  root.replaceChildren(line, peak, chartBox)
  const uPlot = await loadUplot()
  const chart = new uPlot({
    width: Math.max(160, chartBox.clientWidth), height: 70,
    legend: { show: false }, cursor: { show: false },
    scales: { y: { range: (u, min, max) => [0, Math.max(5, max * 1.1)] } },
    axes: [{ show: false }, { show: false }],
    series: [{}, { stroke: '#2e7d32', fill: 'rgba(46,125,50,0.14)', width: 1.5 }],
  }, [[], []], chartBox)
  fit(chart, chartBox, () => 70)

  async function refresh() {
    try {
      const h = await getJson(`/api/v1/stats/global?${params}`)
      const [xs, avg] = columns(h)
      chart.setData([xs, avg])
      const last = h.points[h.points.length - 1]
      const count = last ? Math.round(last.avg) : 0
      now.textContent = number(count)
      say(count)
      peak.textContent = h.summary.points ? tr.t('script.peak24h', { peak: h.summary.peak }) : ''
    } catch (e) {
      peak.textContent = unavailable(e)
    }
    // New measurements arrive once per ping round (5 minutes by default).
    setTimeout(refresh, 300_000)
  }
  await refresh()
}

function start() {
  const history = document.getElementById('history')
  if (history) historyWidget(history)
  const global = document.getElementById('global-players')
  if (global) globalWidget(global)
}
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
else start()
