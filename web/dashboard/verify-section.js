// Proving that the owner runs the server: the listing's token, where to put it for the server's
// edition, and Verify, which pings the server at once. A refusal quotes the MOTD the site read.
import { get, post, serverPath } from './api.js'
import { announce, formatTime, h, replace } from './dom.js'
import { copyField } from './copy.js'
import { errorSentence } from './forms.js'
import { verifiedMark } from './server-summary.js'
/** @import { Server, VerificationAnswer } from '../types/api' */

export const VERIFY_TITLE_ID = 'verification-title'

/**
 * @param {Server} server
 * @param {() => Promise<void>} onVerified draws the page again (its marks and notices change)
 */
export async function verifySection(server, onVerified) {
  const v = /** @type {VerificationAnswer} */ (await get(serverPath(server.slug, '/verification')))
  const result = h('div', { class: 'verify-result', role: 'status', 'aria-live': 'polite' })
  const button = h('button', { type: 'button', class: 'button button-primary' }, v.verified ? 'Verify again' : 'Verify')
  button.addEventListener('click', async () => {
    button.disabled = true
    replace(result, h('p', { class: 'muted' }, `Reading the MOTD of ${v.address}…`))
    try {
      await post(serverPath(server.slug, '/verification'))
      announce('Verified: the token was found in the MOTD.')
      await onVerified()
    } catch (error) {
      replace(result, h('p', { class: 'notice notice-error' }, errorSentence(error)))
    } finally {
      button.disabled = false
    }
  })
  return h('section', { class: 'card', id: 'verification', 'aria-labelledby': VERIFY_TITLE_ID },
    h('h2', { id: VERIFY_TITLE_ID, tabindex: '-1' }, 'Ownership'),
    v.verified && v.verifiedAt
      ? h('p', null, verifiedMark(), ` since ${formatTime(v.verifiedAt)}: you proved you run this server. You may remove the token from the MOTD.`)
      : h('p', null, 'Not verified yet. Prove that you run this server by putting this token in its MOTD:'),
    copyField(v.token, { label: 'Copy the token' }),
    h('ol', { class: 'steps' }, v.instructions.map((step) => h('li', null, step))),
    button, result)
}
