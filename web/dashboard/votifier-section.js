// The Votifier target: host, port and protocol; v2 with a token (generated, or the listener's
// own) and the exact line to paste under `tokens:` in the listener's config; v1 with the
// listener's public key pasted in.
import { del, put, serverPath } from './api.js'
import { announce, h, newId, replace } from './dom.js'
import { copyField } from './copy.js'
import { actionButton, controlOf, field, formError, onSubmit, valueOf } from './forms.js'
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
    h('legend', null, 'Protocol'),
    option('v2', 'v2 (recommended)', 'a shared token; the listener confirms every vote'),
    option('v1', 'v1', 'the listener\'s RSA public key; no confirmation'),
    h('p', { class: 'field-error', hidden: true }))
}

/** @param {VotifierSettings | null} v */
function savedState(v) {
  if (!v) return h('p', { class: 'muted' }, 'No Votifier target yet: votes are not pushed to your server.')
  if (v.protocol === 'v2') {
    const help = newId('config-line-help')
    return h('div', { class: 'saved-target' },
      h('p', { id: help }, 'Paste this line exactly as shown (quotes included, where there are any) under ', h('code', null, 'tokens:'), ' in your listener\'s ', h('code', null, 'config.yml'),
        ' (NuVotifier: ', h('code', null, 'plugins/Votifier/config.yml'), ', or ', h('code', null, 'plugins/nuvotifier/config.yml'), ' on a proxy), then reload it:'),
      copyField(v.configLine ?? '', { label: 'Copy the line', describedBy: help }))
  }
  return h('p', { class: 'saved-target' }, `Votes are pushed with v1 to ${v.host}:${v.port}, encrypted with the public key you pasted. v1 has no acknowledgement: press Test, then look for the vote in the listener's log.`)
}

/** @param {ServerDetail} server */
export function votifierSection(server) {
  const section = h('section', { class: 'card', id: 'votifier' })
  let votifier = server.votifier

  function draw() {
    const protocol = votifier?.protocol ?? 'v2'
    const v2Fields = h('div', { class: 'protocol-fields', dataset: { protocol: 'v2' }, hidden: protocol !== 'v2' },
      field({
        name: 'token', label: 'Token', optional: true, value: '',
        hint: votifier?.protocol === 'v2' ? 'Empty: keep the current token. Or paste your listener\'s own token.' : 'Empty: the site makes one for you. Or paste your listener\'s own token.',
      }),
      votifier?.protocol === 'v2' ? h('label', { class: 'checkbox' }, h('input', { type: 'checkbox', name: 'newToken' }), ' Make a new token (the old line stops working)') : null)
    const v1Fields = h('div', { class: 'protocol-fields', dataset: { protocol: 'v1' }, hidden: protocol !== 'v1' },
      field({
        name: 'publicKey', label: 'Public key of the listener', type: 'textarea', rows: 5, value: votifier?.publicKey ?? '', spellcheck: 'false',
        hint: 'The contents of the listener\'s rsa/public.key (a 2048-bit RSA key, base64; PEM works too).',
      }))
    const form = h('form', { class: 'votifier-form' },
      formError(),
      h('div', { class: 'form-grid' },
        field({ name: 'host', label: 'Listener host', value: votifier?.host ?? server.host, hint: 'Your game server or proxy, as reachable from the internet.' }),
        field({ name: 'port', label: 'Listener port', value: votifier?.port ?? 8192, inputmode: 'numeric', hint: 'NuVotifier\'s default is 8192.' })),
      protocolChoice(protocol), v2Fields, v1Fields,
      h('div', { class: 'form-actions' },
        h('button', { type: 'submit', class: 'button button-primary' }, votifier ? 'Save the target' : 'Save Votifier target'),
        votifier ? actionButton('Remove the Votifier target', async () => {
          await del(serverPath(server.slug, '/votifier'))
          votifier = null
          draw()
          announce('Votifier target removed.')
        }, { className: 'button button-danger', confirmText: 'Remove the Votifier target? Votes are no longer pushed to your server.' }) : null))
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
      announce(saved.protocol === 'v2' ? 'Votifier target saved. Copy the token line into your listener\'s config.' : 'Votifier target saved.')
    })

    replace(section,
      h('h2', null, 'Votifier'),
      h('p', null, 'Every vote is pushed to your server at once (NuVotifier and compatible listeners), with the service name the site signs as. Failed pushes are retried for about 9 hours.'),
      savedState(votifier),
      form)
  }
  draw()
  return section
}
