// Proving that the owner runs the server: the listing's token, where to put it for the server's
// edition, and Verify, which pings the server at once. A refusal quotes the MOTD the site read.
import { get, post, serverPath } from './api.js'
import { announce, formatTime, h, replace } from './dom.js'
import { copyField } from './copy.js'
import { errorSentence, t, tp } from './i18n.js'
import { verifiedMark } from './server-summary.js'
/** @import { Server, VerificationAnswer } from '../types/api' */

export const VERIFY_TITLE_ID = 'verification-title'

// Where the token goes for the server's edition, and what follows (the API's `instructions` say
// the same in English, for scripts).
/**
 * @param {Server} server
 * @param {VerificationAnswer} v
 */
function steps(server, v) {
  const token = h('code', null, v.token)
  return [
    tp(server.edition === 'java' ? 'dash.verify.step.java' : 'dash.verify.step.bedrock', {
      token, example: h('code', null, server.edition === 'java' ? `motd=A Minecraft Server ${v.token}` : `server-name=Dedicated Server ${v.token}`),
    }),
    t('dash.verify.step.restart'),
    t('dash.verify.step.press', { address: v.address }),
    t('dash.verify.step.after'),
  ]
}

/**
 * @param {Server} server
 * @param {() => Promise<void>} onVerified draws the page again (its marks and notices change)
 */
export async function verifySection(server, onVerified) {
  const v = /** @type {VerificationAnswer} */ (await get(serverPath(server.slug, '/verification')))
  const result = h('div', { class: 'verify-result', role: 'status', 'aria-live': 'polite' })
  const button = h('button', { type: 'button', class: 'button button-primary' }, t(v.verified ? 'dash.verify.again' : 'dash.verify.verify'))
  button.addEventListener('click', async () => {
    button.disabled = true
    replace(result, h('p', { class: 'muted' }, t('dash.verify.reading', { address: v.address })))
    try {
      await post(serverPath(server.slug, '/verification'))
      announce(t('dash.verify.done'))
      await onVerified()
    } catch (error) {
      replace(result, h('p', { class: 'notice notice-error' }, errorSentence(error)))
    } finally {
      button.disabled = false
    }
  })
  return h('section', { class: 'card', id: 'verification', 'aria-labelledby': VERIFY_TITLE_ID },
    h('h2', { id: VERIFY_TITLE_ID, tabindex: '-1' }, t('dash.verify.title')),
    v.verified && v.verifiedAt
      ? h('p', null, tp('dash.verify.since', { mark: verifiedMark(), time: formatTime(v.verifiedAt) }))
      : h('p', null, t('dash.verify.notYet')),
    copyField(v.token, { label: t('dash.verify.copy') }),
    h('ol', { class: 'steps' }, steps(server, v).map((step) => h('li', null, step))),
    button, result)
}
