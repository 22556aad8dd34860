// The webhook: its URL, the signing secret (hidden until revealed, copyable, rotatable) and
// how a receiver checks the signature.
import { del, post, put, serverPath } from './api.js'
import { announce, h, newId, replace } from './dom.js'
import { copyButton } from './copy.js'
import { actionButton, field, formError, onSubmit, valueOf } from './forms.js'
import { t, tp } from './i18n.js'
import { refusedNotice } from './refused-notice.js'
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
      reveal.textContent = t(shown ? 'dash.webhook.hide' : 'dash.webhook.reveal')
    },
  }, t('dash.webhook.reveal'))
  // Without the clipboard the secret is selected for Ctrl+C: shown first if hidden, never hidden by it.
  const copy = copyButton(() => webhook.secret, { selectTarget: () => { if (!shown) reveal.click(); return value } })
  const rotate = actionButton(t('dash.webhook.rotate'), onRotated, {
    className: 'button-small',
    confirmText: t('dash.webhook.confirmRotate'),
  })
  return h('div', { class: 'secret-row' },
    h('span', { class: 'secret-label', id: `${id}-label` }, t('dash.webhook.secret')),
    value, h('div', { class: 'copy-actions' }, reveal, copy.button, rotate, copy.status))
}

/** @param {ServerDetail} server */
export function webhookSection(server) {
  const section = h('section', { class: 'card', id: 'webhook' })
  let webhook = server.webhook

  function draw() {
    const form = onSubmit(h('form', { class: 'inline-fields' },
      formError(),
      field({ name: 'url', label: t('dash.webhook.url'), type: 'url', value: webhook?.url ?? '', placeholder: 'https://example.com/votelist-hook', hint: t('dash.webhook.urlHint') }),
      h('button', { type: 'submit', class: 'button button-primary' }, t(webhook ? 'dash.webhook.saveUrl' : 'dash.webhook.save'))), async (f) => {
      const first = !webhook
      webhook = /** @type {WebhookAnswer} */ (await put(serverPath(server.slug, '/webhook'), { url: valueOf(f, 'url') })).webhook
      draw()
      announce(t(first ? 'dash.webhook.saved' : 'dash.webhook.urlSaved'))
    })
    replace(section,
      h('h2', null, t('dash.channel.webhook')),
      h('p', null, t('dash.webhook.lead')),
      form,
      refusedNotice(webhook),
      webhook ? [
        secretRow(webhook, async () => {
          webhook = /** @type {WebhookAnswer} */ (await post(serverPath(server.slug, '/webhook/rotate'))).webhook
          draw()
          announce(t('dash.webhook.rotated'))
        }),
        h('p', { class: 'hint' }, tp('dash.webhook.check', {
          signature: h('code', null, 'X-TSM-Signature'), prefix: h('code', null, 'sha256='), payload: h('code', null, 'X-TSM-Timestamp + "." + body'),
        })),
        actionButton(t('dash.webhook.remove'), async () => {
          await del(serverPath(server.slug, '/webhook'))
          webhook = null
          draw()
          announce(t('dash.webhook.removed'))
        }, { className: 'button button-danger', confirmText: t('dash.webhook.confirmRemove') }),
      ] : null)
  }
  draw()
  return section
}
