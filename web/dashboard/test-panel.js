// The Test button: a trial vote on every configured channel at once; each channel's outcome is
// shown in place (in an aria-live region) as soon as the site answers, failures in words.
import { post, serverPath } from './api.js'
import { formatDuration, h, replace } from './dom.js'
import { CHANNEL_NAMES, failureLabel } from './explain.js'
import { errorSentence } from './forms.js'
/** @import { Server, TestAnswer, TestResult } from '../types/api' */

/** @param {TestResult} r */
function resultItem(r) {
  const ok = r.status === 'succeeded'
  return h('li', { class: `test-result ${ok ? 'test-ok' : 'test-failed'}`, dataset: { channel: r.channel } },
    h('span', { class: `outcome outcome-${ok ? 'succeeded' : 'failed'}` }, ok ? 'Delivered' : failureLabel(r.error, null)),
    ' ',
    h('strong', null, CHANNEL_NAMES[r.channel]),
    h('span', { class: 'muted' }, ` · ${formatDuration(r.durationMs)}`),
    ok ? null : h('p', { class: 'test-error' }, r.error))
}

// onDone(): after each test (the Deliveries tab refreshes its list).
/**
 * @param {Server} server
 * @param {{ onDone?: () => Promise<void>, compact?: boolean }} [options]
 */
export function testPanel(server, { onDone, compact = false } = {}) {
  const results = h('div', { class: 'test-results', role: 'status', 'aria-live': 'polite' })
  const button = h('button', { type: 'button', class: 'button button-primary' }, 'Send a test vote')
  button.addEventListener('click', async () => {
    button.disabled = true
    replace(results, h('p', { class: 'muted' }, 'Sending a test vote to each channel…'))
    try {
      const answer = /** @type {TestAnswer} */ (await post(serverPath(server.slug, '/test'), {}))
      const failed = answer.results.filter((r) => r.status !== 'succeeded').length
      const total = answer.results.length
      const summary = total === 1
        ? (failed ? 'The test vote failed:' : 'The test vote was delivered:')
        : (failed ? `${failed} of ${total} channels failed:` : 'Every channel received the test vote:')
      replace(results,
        h('p', { class: 'test-summary' }, summary),
        h('ul', { class: 'test-list' }, answer.results.map(resultItem)))
    } catch (error) {
      replace(results, h('p', { class: 'notice notice-error' }, errorSentence(error)))
    } finally {
      button.disabled = false
      await onDone?.()
    }
  })
  return h('section', { class: `card test-panel${compact ? ' compact' : ''}`, 'aria-labelledby': `test-title-${server.slug}` },
    h('h2', { id: `test-title-${server.slug}` }, 'Test'),
    h('p', null, 'Sends a test vote for ', h('code', null, 'VotelistTest'), ' to your Votifier listener, your webhook and Discord now. It shows in Deliveries as a test, is never retried and never counts as a vote (a Votifier listener cannot tell it from a real vote, so that name gets the usual reward).'),
    button, results)
}
