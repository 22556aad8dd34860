// Administrators: the running site. Its scheduled work (each task's last run, outcome and next
// run), the delivery queue and the last ping round, a backup to download, and the configuration
// it runs with (read only: votelist.toml stays the one place settings change).
import { get } from './api.js'
import { announce, formatDuration, h, replace, timeElement } from './dom.js'
import { cell, dataTable } from './table.js'
/** @import { Ctx } from './app.js' */
/** @import { ConfigAnswer, QueueAnswer, Task, TasksAnswer } from '../types/api' */

// "every 5 min": a task's period in its largest whole unit.
const every = (/** @type {number} */ ms) =>
  ms % 3_600_000 === 0 ? `every ${ms / 3_600_000} h` : ms % 60_000 === 0 ? `every ${ms / 60_000} min` : `every ${ms / 1000} s`

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
  if (t.running) return h('span', { class: 'outcome outcome-pending' }, 'Running')
  if (t.outcome === null) return h('span', { class: 'muted' }, 'Not run yet')
  if (t.outcome === 'ok') return h('span', { class: 'outcome outcome-succeeded' }, 'OK')
  return h('span', null, h('span', { class: 'outcome outcome-failed' }, 'Error'), h('span', { class: 'failure-text' }, ` ${t.error}`))
}

/** @param {Task[]} tasks */
const tasksTable = (tasks) => h('div', { class: 'card table-card' }, dataTable('Scheduled tasks',
  ['Task', 'Last run', ['Duration', true], 'Outcome', 'Next run'],
  h('tbody', null, tasks.map((t) => h('tr', { dataset: { task: t.id } },
    cell('Task', [t.title, h('div', { class: 'muted small' }, `${t.id}, ${every(t.everyMs)}`)], { class: 'cell-main' }),
    cell('Last run', timeElement(t.lastRunAt, { short: true })),
    cell('Duration', formatDuration(t.lastDurationMs), { class: 'num' }),
    cell('Outcome', outcome(t)),
    cell('Next run', t.running ? h('span', { class: 'muted' }, 'after this run') : timeElement(t.nextRunAt, { short: true })))))))

/** @param {QueueAnswer} q */
function queueFigures(q) {
  const round = q.lastPingRound
  return [
    h('div', { class: 'tiles', dataset: { figures: 'deliveries' } },
      tile('Deliveries pending', q.deliveries.pending.toLocaleString('en-GB')),
      tile('Waiting for a retry', q.deliveries.retrying.toLocaleString('en-GB')),
      tile('Given up, last 24 h', q.deliveries.gaveUpLast24h.toLocaleString('en-GB'))),
    h('p', { class: 'muted small' }, `Job queue: ${q.jobs.total.toLocaleString('en-GB')} queued, ${q.jobs.due.toLocaleString('en-GB')} due, ${q.jobs.running.toLocaleString('en-GB')} running.`),
    h('h3', null, 'Last ping round'),
    round
      ? h('div', { class: 'tiles', dataset: { figures: 'ping-round' } },
        tile('Servers up', round.up.toLocaleString('en-GB')),
        tile('Servers down', round.down.toLocaleString('en-GB')),
        tile('Duration', formatDuration(round.durationMs)))
      : h('p', { class: 'muted' }, 'No ping round has run yet.'),
    round ? h('p', { class: 'muted small' }, 'Started ', timeElement(round.startedAt, { withRelative: true }), `, ${round.servers.toLocaleString('en-GB')} listed servers pinged.`) : null,
  ]
}

/** @param {ConfigAnswer} c */
function configuration(c) {
  return [
    h('p', null, c.file ? ['Read from ', h('code', null, c.file), '. '] : 'No configuration file: the built-in defaults apply. ',
      'Settings change in that file only (then restart the service); this page shows them. Secrets are masked.'),
    c.siteUrl.configured ? null : h('div', { class: 'notice' },
      h('p', null, h('code', null, 'site.base_url'), ` is not set: links use ${c.siteUrl.base}, and the dashboard works only from ${c.siteUrl.origins.join(', ')}. Set it to the address people open.`)),
    h('div', { class: 'card table-card' }, dataTable('Configuration in effect', ['Key', 'Value', 'Source'],
      h('tbody', null, c.settings.map((s) => h('tr', { dataset: { key: s.key } },
        cell('Key', h('code', null, s.key), { class: 'cell-main' }),
        cell('Value', h('code', { class: 'config-value' }, s.value)),
        cell('Source', s.source === 'file' ? 'File' : h('span', { class: 'muted' }, 'Default'))))))),
  ]
}

/**
 * @param {Ctx} ctx
 * @param {HTMLElement} el
 */
export async function renderAdminSite(ctx, el) {
  ctx.setTitle('Site')
  const [tasks, queue, config] = await Promise.all([get('/api/v1/admin/tasks'), get('/api/v1/admin/queue'), get('/api/v1/admin/config')])
  const work = h('div', { class: 'admin-work' })
  const drawWork = (/** @type {TasksAnswer} */ t, /** @type {QueueAnswer} */ q) => replace(work,
    section('work-title', 'Scheduled work', tasksTable(t.tasks)),
    section('queue-title', 'Deliveries and pings', queueFigures(q)))
  drawWork(/** @type {TasksAnswer} */ (tasks), /** @type {QueueAnswer} */ (queue))
  const refresh = h('button', {
    type: 'button', class: 'button-small',
    onClick: async () => {
      refresh.disabled = true
      try {
        const [t, q] = await Promise.all([get('/api/v1/admin/tasks'), get('/api/v1/admin/queue')])
        drawWork(/** @type {TasksAnswer} */ (t), /** @type {QueueAnswer} */ (q))
        announce('The figures are up to date.')
      } finally {
        refresh.disabled = false
      }
    },
  }, 'Refresh')
  replace(el,
    h('div', { class: 'page-header' }, h('h1', { tabindex: '-1' }, 'Site'), refresh),
    work,
    section('backup-title', 'Backup',
      h('p', null, 'A consistent copy of the whole database, taken now while the site keeps running (the same as ', h('code', null, 'votelist backup'),
        '). It holds everything, password hashes and webhook secrets included: keep it safe. Each download is written to the audit log.'),
      h('p', null, h('a', { class: 'button', href: '/api/v1/admin/backup', download: true }, 'Download a backup'))),
    section('config-title', 'Configuration', configuration(/** @type {ConfigAnswer} */ (config))))
}
