// The server's listing fields, for adding a server and for editing it. The API checks every
// value and its message lands under the field it names (error.field).
import { patch, post, serverPath } from './api.js'
import { h } from './dom.js'
import { checkboxGroup, checkedValues, controlOf, field, formError, onSubmit, valueOf } from './forms.js'
import { t } from './i18n.js'
/** @import { Server, ServerAnswer } from '../types/api' */

// An empty port means the edition's default; anything else goes to the API as typed, which
// answers "port must be an integer from 1 to 65535" when it is not one.
/** @param {string} text */
function portValue(text) {
  if (text === '') return null
  return /^\d+$/.test(text) ? Number(text) : text
}

/**
 * @param {HTMLFormElement} form
 * @param {boolean} creating
 */
function listing(form, creating) {
  /** @type {{ name: string, host: string, edition: string, version: string, website: string, description: string, modes: string[], port?: number | string | null, slug?: string }} */
  const body = {
    name: valueOf(form, 'name'),
    host: valueOf(form, 'host'),
    edition: valueOf(form, 'edition'),
    version: valueOf(form, 'version'),
    website: valueOf(form, 'website'),
    description: controlOf(form, 'description')?.value ?? '',
    modes: checkedValues(form, 'modes'),
  }
  const port = portValue(valueOf(form, 'port'))
  if (!creating || port !== null) body.port = port
  if (creating && valueOf(form, 'slug')) body.slug = valueOf(form, 'slug')
  return body
}

// onSaved(server) runs after a successful save.
/**
 * @param {{ modes: string[] }} site the site's game modes (a view's ctx)
 * @param {{ server?: Server | null, onSaved: (server: Server) => void | Promise<void> }} options
 */
export function serverForm(site, { server = null, onSaved }) {
  const creating = server === null
  /** @type {Pick<Server, 'name' | 'host' | 'port' | 'edition' | 'version' | 'website' | 'description' | 'modes'>} */
  const s = server ?? { name: '', host: '', port: null, edition: 'java', version: '', website: '', description: '', modes: [] }
  const form = h('form', { class: 'server-form' },
    formError(),
    h('div', { class: 'form-grid' },
      field({ name: 'name', label: t('dash.form.name'), value: s.name, hint: t('dash.form.nameHint') }),
      field({ name: 'host', label: t('dash.form.host'), value: s.host, placeholder: 'play.example.com', hint: t('dash.form.hostHint') }),
      field({ name: 'port', label: t('dash.form.port'), value: s.port ?? '', optional: true, inputmode: 'numeric', hint: t('dash.form.portHint') }),
      field({ name: 'edition', label: t('common.edition'), type: 'select', value: s.edition, options: [{ value: 'java', label: t('dash.form.java') }, { value: 'bedrock', label: t('dash.form.bedrock') }] }),
      creating ? field({ name: 'slug', label: t('dash.form.slug'), optional: true, hint: t('dash.form.slugHint', { slug: t('dash.form.slugPart') }) }) : null,
      field({ name: 'version', label: t('dash.form.version'), value: s.version, optional: true, placeholder: '1.21.4' }),
      field({ name: 'website', label: t('dash.form.website'), type: 'url', value: s.website, optional: true, placeholder: 'https://example.com' })),
    field({ name: 'description', label: t('dash.form.description'), type: 'textarea', value: s.description, optional: true, rows: 5, hint: t('dash.form.descriptionHint') }),
    checkboxGroup({ name: 'modes', legend: t('dash.form.modes'), hint: t('dash.form.modesHint'), options: site.modes.map((m) => ({ value: m, label: m })), values: s.modes }),
    h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'button button-primary' }, t(creating ? 'dash.form.add' : 'dash.form.save'))))

  return onSubmit(form, async (f) => {
    const answer = /** @type {ServerAnswer} */ (server ? await patch(serverPath(server.slug), listing(f, false)) : await post('/api/v1/me/servers', listing(f, true)))
    await onSaved(answer.server)
  }, t(creating ? 'dash.form.adding' : 'dash.saving'))
}
