// The Votifier target: host, port and protocol; v2 with a token (generated, or the listener's
// own) and the exact line to paste under `tokens:` in the listener's config; v1 with the
// listener's public key pasted in.
import { del, put, serverPath } from './api.js'
import { announce, h, newId, replace } from './dom.js'
import { copyField } from './copy.js'
import { actionButton, controlOf, field, formError, onSubmit, valueOf } from './forms.js'
import { t, tp } from './i18n.js'
/** @import { ServerDetail, VotifierAnswer, VotifierSettings } from '../types/api' */

/** @param {'v1' | 'v2'} current */
function protocolChoice(current) {
  /**
   * @param {'v1' | 'v2'} value
   * @param {string} label
   * @param {string} hint
   */
  const option = (value, label, hint) => h('label', { class: 'radio' },
    h('input', { type: 'radio', name: 'protocol', value, checked: current === value }),
    h('span', null, h('strong', null, label), h('span', { class: 'muted' }, ` — ${hint}`)))
  return h('fieldset', { class: 'field radio-group', dataset: { field: 'protocol' } },
    h('legend', null, t('dash.votifier.protocol')),
    option('v2', t('dash.votifier.v2'), t('dash.votifier.v2Hint')),
    option('v1', 'v1', t('dash.votifier.v1Hint')),
    h('p', { class: 'field-error', hidden: true }))
}

/** @param {VotifierSettings | null} v */
function savedState(v) {
  if (!v) return h('p', { class: 'muted' }, t('dash.votifier.none'))
  if (v.protocol === 'v2') {
    const help = newId('config-line-help')
    return h('div', { class: 'saved-target' },
      h('p', { id: help }, tp('dash.votifier.paste', {
        tokens: h('code', null, 'tokens:'), config: h('code', null, 'config.yml'),
        plugin: h('code', null, 'plugins/Votifier/config.yml'), proxy: h('code', null, 'plugins/nuvotifier/config.yml'),
      })),
      copyField(v.configLine ?? '', { label: t('dash.votifier.copyLine'), describedBy: help }))
  }
  return h('p', { class: 'saved-target' }, t('dash.votifier.v1Saved', { target: `${v.host}:${v.port}` }))
}

/** @param {ServerDetail} server */
export function votifierSection(server) {
  const section = h('section', { class: 'card', id: 'votifier' })
  let votifier = server.votifier

  function draw() {
    const protocol = votifier?.protocol ?? 'v2'
    const v2Fields = h('div', { class: 'protocol-fields', dataset: { protocol: 'v2' }, hidden: protocol !== 'v2' },
      field({
        name: 'token', label: t('dash.votifier.token'), optional: true, value: '',
        hint: t(votifier?.protocol === 'v2' ? 'dash.votifier.tokenKeep' : 'dash.votifier.tokenNew'),
      }),
      votifier?.protocol === 'v2' ? h('label', { class: 'checkbox' }, h('input', { type: 'checkbox', name: 'newToken' }), ' ', t('dash.votifier.newToken')) : null)
    const v1Fields = h('div', { class: 'protocol-fields', dataset: { protocol: 'v1' }, hidden: protocol !== 'v1' },
      field({
        name: 'publicKey', label: t('dash.votifier.publicKey'), type: 'textarea', rows: 5, value: votifier?.publicKey ?? '', spellcheck: 'false',
        hint: t('dash.votifier.publicKeyHint'),
      }))
    const form = h('form', { class: 'votifier-form' },
      formError(),
      h('div', { class: 'form-grid' },
        field({ name: 'host', label: t('dash.votifier.host'), value: votifier?.host ?? server.host, hint: t('dash.votifier.hostHint') }),
        field({ name: 'port', label: t('dash.votifier.port'), value: votifier?.port ?? 8192, inputmode: 'numeric', hint: t('dash.votifier.portHint') })),
      protocolChoice(protocol), v2Fields, v1Fields,
      h('div', { class: 'form-actions' },
        h('button', { type: 'submit', class: 'button button-primary' }, t(votifier ? 'dash.votifier.save' : 'dash.votifier.saveNew')),
        votifier ? actionButton(t('dash.votifier.remove'), async () => {
          await del(serverPath(server.slug, '/votifier'))
          votifier = null
          draw()
          announce(t('dash.votifier.removed'))
        }, { className: 'button button-danger', confirmText: t('dash.votifier.confirmRemove') }) : null))
    form.addEventListener('change', (event) => {
      const input = event.target
      if (!(input instanceof HTMLInputElement) || input.name !== 'protocol') return
      v2Fields.hidden = input.value !== 'v2'
      v1Fields.hidden = input.value !== 'v1'
    })
    onSubmit(form, async (f) => {
      const chosen = valueOf(f, 'protocol')
      const port = valueOf(f, 'port')
      /** @type {{ host: string, protocol: string, port: number | string, token?: string, newToken?: boolean, publicKey?: string }} */
      const body = { host: valueOf(f, 'host'), protocol: chosen, port: /^\d+$/.test(port) ? Number(port) : port }
      if (chosen === 'v2') {
        if (valueOf(f, 'token')) body.token = valueOf(f, 'token')
        const newToken = controlOf(f, 'newToken')
        if (newToken instanceof HTMLInputElement && newToken.checked) body.newToken = true
      } else {
        body.publicKey = controlOf(f, 'publicKey')?.value ?? ''
      }
      const saved = /** @type {VotifierAnswer} */ (await put(serverPath(server.slug, '/votifier'), body)).votifier
      votifier = saved
      draw()
      announce(t(saved.protocol === 'v2' ? 'dash.votifier.savedV2' : 'dash.votifier.saved'))
    })

    replace(section,
      h('h2', null, t('dash.channel.votifier')),
      h('p', null, t('dash.votifier.lead')),
      savedState(votifier),
      form)
  }
  draw()
  return section
}
