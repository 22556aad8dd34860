// The webhook: its URL, the signing secret (hidden until revealed, copyable, rotatable) and
// how a receiver checks the signature.
import { del, post, put, serverPath } from './api.js'
import { announce, h, newId, replace } from './dom.js'
import { copyButton } from './copy.js'
import { actionButton, field, formError, onSubmit, valueOf } from './forms.js'
/** @import { ServerDetail, WebhookAnswer, WebhookSettings } from '../types/api' */

/**
 * @param {WebhookSettings} webhook
 * @param {() => Promise<void>} onRotated
 */
function secretRow(webhook, onRotated) {
  const id = newId('webhook-secret')
  const value = h('code', { id, class: 'secret-value' }, '•'.repeat(24))
  let shown = false
  const reveal = h('button', {
    type: 'button', class: 'button-small', 'aria-pressed': 'false', 'aria-controls': id,
    onClick: () => {
      shown = !shown
      value.textContent = shown ? webhook.secret : '•'.repeat(24)
      reveal.setAttribute('aria-pressed', String(shown))
      reveal.textContent = shown ? 'Hide' : 'Reveal'
    },
  }, 'Reveal')
  const copy = copyButton(() => webhook.secret, { label: 'Copy', selectTarget: () => { reveal.click(); return value } })
  const rotate = actionButton('Rotate', onRotated, {
    className: 'button-small',
    confirmText: 'Make a new secret now? Deliveries are signed with it from now on: update your receiver at once.',
  })
  return h('div', { class: 'secret-row' },
    h('span', { class: 'secret-label', id: `${id}-label` }, 'Signing secret'),
    value, h('div', { class: 'copy-actions' }, reveal, copy.button, rotate, copy.status))
}

/** @param {ServerDetail} server */
export function webhookSection(server) {
  const section = h('section', { class: 'card', id: 'webhook' })
  let webhook = server.webhook

  function draw() {
    const form = onSubmit(h('form', { class: 'inline-fields' },
      formError(),
      field({ name: 'url', label: 'Webhook URL', type: 'url', value: webhook?.url ?? '', placeholder: 'https://example.com/votelist-hook', hint: 'Receives a signed JSON POST for every vote. https:// only; redirects are not followed.' }),
      h('button', { type: 'submit', class: 'button button-primary' }, webhook ? 'Save URL' : 'Save webhook')), async (f) => {
      const first = !webhook
      webhook = /** @type {WebhookAnswer} */ (await put(serverPath(server.slug, '/webhook'), { url: valueOf(f, 'url') })).webhook
      draw()
      announce(first ? 'Webhook saved. Its signing secret is ready.' : 'Webhook URL saved; the secret is unchanged.')
    })
    replace(section,
      h('h2', null, 'Webhook'),
      h('p', null, 'An HTTP POST to your address on every vote, with the vote in JSON, signed with HMAC-SHA256 so you can trust it.'),
      form,
      webhook ? [
        secretRow(webhook, async () => {
          webhook = /** @type {WebhookAnswer} */ (await post(serverPath(server.slug, '/webhook/rotate'))).webhook
          draw()
          announce('New secret made. Update your receiver.')
        }),
        h('p', { class: 'hint' }, 'Check each request: ', h('code', null, 'X-TSM-Signature'), ' is ', h('code', null, 'sha256='), ' followed by the hex HMAC-SHA256 of ',
          h('code', null, 'X-TSM-Timestamp + "." + body'), ' keyed with this secret; refuse it when it differs or when the timestamp is more than 5 minutes old.'),
        actionButton('Remove the webhook', async () => {
          await del(serverPath(server.slug, '/webhook'))
          webhook = null
          draw()
          announce('Webhook removed.')
        }, { className: 'button button-danger', confirmText: 'Remove the webhook? Votes are no longer sent to it.' }),
      ] : null)
  }
  draw()
  return section
}
