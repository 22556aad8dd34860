// The Test button: a trial vote on every configured channel at once; each channel's outcome is
// shown in place (in an aria-live region) as soon as the site answers, failures in words.
import { post, serverPath } from './api.js'
import { formatDuration, h, holdFocus, replace } from './dom.js'
import { CHANNEL_NAMES, failureLabel } from './explain.js'
import { errorSentence, t, tn, tp, tr } from './i18n.js'
/** @import { Server, TestAnswer, TestResult } from '../types/api' */

/** @param {TestResult} r */
function resultItem(r) {
  const ok = r.status === 'succeeded'
  return h('li', { class: `test-result ${ok ? 'test-ok' : 'test-failed'}`, dataset: { channel: r.channel } },
    h('span', { class: `outcome outcome-${ok ? 'succeeded' : 'failed'}` }, ok ? t('dash.outcome.succeeded') : failureLabel(tr, r.error, null)),
    ' ',
    h('strong', null, t(CHANNEL_NAMES[r.channel])),
    h('span', { class: 'muted' }, ` · ${formatDuration(r.durationMs)}`),
    // The site's own record of the failure, in English (as in the Deliveries tab).
    ok ? null : h('p', { class: 'test-error', lang: 'en' }, r.error))
}

// onDone(): after each test (the Deliveries tab refreshes its list).
/**
 * @param {Server} server
 * @param {{ onDone?: () => Promise<void>, compact?: boolean }} [options]
 */
export function testPanel(server, { onDone, compact = false } = {}) {
  const results = h('div', { class: 'test-results', role: 'status', 'aria-live': 'polite' })
  const button = h('button', { type: 'button', class: 'button button-primary' }, t('dash.test.send'))
  button.addEventListener('click', async () => {
    const refocus = holdFocus(button)
    button.disabled = true
    replace(results, h('p', { class: 'muted' }, t('dash.test.sending')))
    try {
      const answer = /** @type {TestAnswer} */ (await post(serverPath(server.slug, '/test'), {}))
      const failed = answer.results.filter((r) => r.status !== 'succeeded').length
      const total = answer.results.length
      const summary = total === 1
        ? t(failed ? 'dash.test.failedOne' : 'dash.test.deliveredOne')
        : (failed ? tn('dash.test.failedSome', failed, { total }) : t('dash.test.deliveredAll'))
      replace(results,
        h('p', { class: 'test-summary' }, summary),
        h('ul', { class: 'test-list' }, answer.results.map(resultItem)))
    } catch (error) {
      replace(results, h('p', { class: 'notice notice-error' }, errorSentence(error)))
    } finally {
      button.disabled = false
      await onDone?.()
      refocus()
    }
  })
  return h('section', { class: `card test-panel${compact ? ' compact' : ''}`, 'aria-labelledby': `test-title-${server.slug}` },
    h('h2', { id: `test-title-${server.slug}` }, t('dash.test.title')),
    h('p', null, tp('dash.test.lead', { pseudo: h('code', null, 'VotelistTest') })),
    button, results)
}
