// Administrators: the running site. Its scheduled work (each task's last run, outcome and next
// run), the delivery queue and the last ping round, a backup to download, and the configuration
// it runs with (read only: votelist.toml stays the one place settings change).
import { get } from './api.js'
import { announce, formatDuration, formatNumber, h, replace, timeElement } from './dom.js'
import { t as tt, tn, tnp, tp, tr } from './i18n.js'
import { cell, dataTable } from './table.js'
/** @import { Ctx } from './app.js' */
/** @import { ConfigAnswer, QueueAnswer, Task, TasksAnswer } from '../types/api' */

// "every 5 min": a task's period in its largest whole unit.
const every = (/** @type {number} */ ms) =>
  ms % 3_600_000 === 0 ? tn('dash.site.everyHours', ms / 3_600_000) : ms % 60_000 === 0 ? tn('dash.site.everyMinutes', ms / 60_000) : tn('dash.site.everySeconds', ms / 1000)

/**
 * @param {string} id
 * @param {string} title
 * @param {...import('../types/dom').Child} content
 */
const section = (id, title, ...content) =>
  h('section', { class: 'admin-section', 'aria-labelledby': id }, h('h2', { id }, title), content)

/**
 * @param {string} label
 * @param {import('../types/dom').Child} value
 */
const tile = (label, value) => h('div', { class: 'tile' }, h('div', { class: 'tile-label' }, label), h('div', { class: 'tile-value' }, value))

/** @param {Task} t */
function outcome(t) {
  if (t.running) return h('span', { class: 'outcome outcome-pending' }, tt('dash.site.running'))
  if (t.outcome === null) return h('span', { class: 'muted' }, tt('dash.site.notRun'))
  if (t.outcome === 'ok') return h('span', { class: 'outcome outcome-succeeded' }, tt('dash.site.ok'))
  return h('span', null, h('span', { class: 'outcome outcome-failed' }, tt('dash.site.error')), h('span', { class: 'failure-text', lang: 'en' }, ` ${t.error}`))
}

// A task's title, in the language when the catalog has it (dash.task.<id>), else as the site
// registered it.
/** @param {Task} task */
const taskTitle = (task) => tr.find(`dash.task.${task.id}`) ?? task.title

/** @param {Task[]} tasks */
function tasksTable(tasks) {
  const [task, lastRun, duration, result, nextRun] = [tt('dash.site.task'), tt('dash.site.lastRun'), tt('dash.site.duration'), tt('dash.site.outcome'), tt('dash.site.nextRun')]
  return h('div', { class: 'card table-card' }, dataTable(tt('dash.site.tasksCaption'),
    [task, lastRun, [duration, true], result, nextRun],
    h('tbody', null, tasks.map((t) => h('tr', { dataset: { task: t.id } },
      cell(task, [taskTitle(t), h('div', { class: 'muted small' }, h('code', null, t.id), `, ${every(t.everyMs)}`)], { class: 'cell-main' }),
      cell(lastRun, timeElement(t.lastRunAt, { short: true })),
      cell(duration, formatDuration(t.lastDurationMs), { class: 'num' }),
      cell(result, outcome(t)),
      cell(nextRun, t.running ? h('span', { class: 'muted' }, tt('dash.site.afterThisRun')) : timeElement(t.nextRunAt, { short: true })))))))
}

/** @param {QueueAnswer} q */
function queueFigures(q) {
  const round = q.lastPingRound
  return [
    h('div', { class: 'tiles', dataset: { figures: 'deliveries' } },
      tile(tt('dash.site.pending'), formatNumber(q.deliveries.pending)),
      tile(tt('dash.site.retrying'), formatNumber(q.deliveries.retrying)),
      tile(tt('dash.site.gaveUp'), formatNumber(q.deliveries.gaveUpLast24h))),
    h('p', { class: 'muted small' }, tt('dash.site.jobs', { total: q.jobs.total, due: q.jobs.due, running: q.jobs.running })),
    h('h3', null, tt('dash.site.lastRound')),
    round
      ? h('div', { class: 'tiles', dataset: { figures: 'ping-round' } },
        tile(tt('dash.site.up'), formatNumber(round.up)),
        tile(tt('dash.site.down'), formatNumber(round.down)),
        tile(tt('dash.site.duration'), formatDuration(round.durationMs)))
      : h('p', { class: 'muted' }, tt('dash.site.noRound')),
    round ? h('p', { class: 'muted small' }, tnp('dash.site.roundStarted', round.servers, { time: timeElement(round.startedAt, { withRelative: true }) })) : null,
  ]
}

/** @param {ConfigAnswer} c */
function configuration(c) {
  return [
    h('p', null, c.file ? tp('dash.site.configFile', { file: h('code', null, c.file) }) : tt('dash.site.configDefaults'), ' ', tt('dash.site.configLead')),
    c.siteUrl.configured ? null : h('div', { class: 'notice' },
      h('p', null, tp('dash.site.baseUrl', { key: h('code', null, 'site.base_url'), base: c.siteUrl.base, origins: c.siteUrl.origins.join(', ') }))),
    h('div', { class: 'card table-card' }, dataTable(tt('dash.site.configCaption'), [tt('dash.site.key'), tt('dash.site.value'), tt('dash.site.source')],
      h('tbody', null, c.settings.map((s) => h('tr', { dataset: { key: s.key } },
        cell(tt('dash.site.key'), h('code', null, s.key), { class: 'cell-main' }),
        cell(tt('dash.site.value'), h('code', { class: 'config-value' }, s.value)),
        cell(tt('dash.site.source'), s.source === 'file' ? tt('dash.site.file') : h('span', { class: 'muted' }, tt('dash.site.default')))))))),
  ]
}

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export async function renderAdminSite(ctx, el) {
  ctx.setTitle(tt('dash.site.title'))
  const [tasks, queue, config] = await Promise.all([get('/api/v1/admin/tasks'), get('/api/v1/admin/queue'), get('/api/v1/admin/config')])
  const work = h('div', { class: 'admin-work' })
  const drawWork = (/** @type {TasksAnswer} */ t, /** @type {QueueAnswer} */ q) => replace(work,
    section('work-title', tt('dash.site.work'), tasksTable(t.tasks)),
    section('queue-title', tt('dash.site.queue'), queueFigures(q)))
  drawWork(/** @type {TasksAnswer} */ (tasks), /** @type {QueueAnswer} */ (queue))
  const refresh = h('button', {
    type: 'button', class: 'button-small',
    onClick: async () => {
      refresh.disabled = true
      try {
        const [t, q] = await Promise.all([get('/api/v1/admin/tasks'), get('/api/v1/admin/queue')])
        drawWork(/** @type {TasksAnswer} */ (t), /** @type {QueueAnswer} */ (q))
        announce(tt('dash.site.refreshed'))
      } finally {
        refresh.disabled = false
      }
    },
  }, tt('dash.site.refresh'))
  replace(el,
    h('div', { class: 'page-header' }, h('h1', { tabindex: '-1' }, tt('dash.site.title')), refresh),
    work,
    section('backup-title', tt('dash.site.backup'),
      h('p', null, tp('dash.site.backupLead', { command: h('code', null, 'votelist backup') })),
      h('p', null, h('a', { class: 'button', href: '/api/v1/admin/backup', download: true }, tt('dash.site.download')))),
    section('config-title', tt('dash.site.config'), configuration(/** @type {ConfigAnswer} */ (config))))
}
