// API keys of the verification API (shown once at creation, listed by their prefix, revoked at
// once), and ready-to-copy calls of check and claim with the owner's key.
import { isolateText } from '../translate.js'
import { del, get, post, serverPath } from './api.js'
import { announce, h, newId, replace, timeElement } from './dom.js'
import { copyField } from './copy.js'
import { actionButton, field, formError, onSubmit, valueOf } from './forms.js'
import { t, tn, tp } from './i18n.js'
import { cell, dataTable } from './table.js'
/** @import { CreatedKeyAnswer, KeysAnswer, Server } from '../types/api' */

const PLACEHOLDER = 'YOUR_API_KEY'

export const siteBase = (/** @type {Server} */ server) => server.voteUrl.slice(0, server.voteUrl.indexOf('/serveur/'))

/**
 * @param {Server} server
 * @param {string | null} key the key just created, else a placeholder is shown
 */
function examples(server, key) {
  const base = siteBase(server)
  const shown = key ?? PLACEHOLDER
  return [
    h('h4', null, t('dash.keys.checkTitle')),
    h('p', { class: 'muted' }, tp('dash.keys.checkLead', {
      fields: h('code', null, 'hasVoted, votedAt, nextVoteAt, claimed'), window: h('code', null, 'window=1…1440'), text: h('code', null, 'format=text'),
    })),
    copyField(`curl -s "${base}/api/v1/votes/check?pseudo=Steve" -H "X-Api-Key: ${shown}"`, { block: true }),
    h('h4', null, t('dash.keys.claimTitle')),
    h('p', { class: 'muted' }, tp('dash.keys.claimLead', {
      claimed: h('code', null, 'claimed=true'), already: h('code', null, 'ALREADY_CLAIMED'), none: h('code', null, 'NO_VOTE'),
    })),
    copyField(`curl -s -X POST "${base}/api/v1/votes/claim?pseudo=Steve" -H "X-Api-Key: ${shown}"`, { block: true }),
    key ? null : h('p', { class: 'hint' }, tp('dash.keys.placeholder', { placeholder: h('code', null, PLACEHOLDER) })),
  ]
}

/** @param {Server} server */
export async function keysSection(server) {
  const list = h('div', { class: 'keys-list' })
  const fresh = h('div', { class: 'new-key', 'aria-live': 'polite' })
  const calls = h('div', { class: 'examples' }, examples(server, null))
  /** @type {string | null} the id of the key on screen, just created */
  let shownId = null
  // The site's limit per key (limits.keyed_per_minute), as the first list gives it.
  let perMinute = 0

  async function load() {
    const answer = /** @type {KeysAnswer} */ (await get(serverPath(server.slug, '/keys')))
    const { keys } = answer
    perMinute = answer.perMinute
    if (!keys.length) return replace(list, h('p', { class: 'muted' }, t('dash.keys.none')))
    const [key, name, created, lastUsed] = [t('dash.keys.key'), t('dash.keys.name'), t('dash.keys.created'), t('dash.keys.lastUsed')]
    replace(list, dataTable(t('dash.keys.caption'), [key, name, created, lastUsed, ''],
      h('tbody', null, keys.map((k) => h('tr', { dataset: { keyId: k.id } },
        cell(key, h('code', null, `${k.prefix}…`)),
        cell(name, isolateText(k.name) || h('span', { class: 'muted' }, '—')),
        cell(created, timeElement(k.createdAt)),
        cell(lastUsed, k.lastUsedAt ? timeElement(k.lastUsedAt) : h('span', { class: 'muted' }, t('dash.keys.never'))),
        cell('', actionButton(t('dash.keys.revoke'), async () => {
          await del(serverPath(server.slug, `/keys/${encodeURIComponent(k.id)}`))
          announce(t('dash.keys.revoked', { prefix: k.prefix }))
          // The key on screen was this one: it no longer works, so neither it nor the calls show it.
          if (k.id === shownId) {
            shownId = null
            replace(fresh)
            replace(calls, examples(server, null))
          }
          await load()
        }, {
          className: 'button-small button-danger',
          ariaLabel: k.name ? t('dash.keys.revokeNamed', { prefix: k.prefix, name: k.name }) : t('dash.keys.revokeLabel', { prefix: k.prefix }),
          confirmText: t('dash.keys.confirmRevoke', { prefix: k.prefix }),
        })))))))
  }

  const form = onSubmit(h('form', { class: 'inline-fields' },
    formError(),
    field({ name: 'name', label: t('dash.keys.newName'), optional: true, placeholder: t('dash.keys.newNameExample'), hint: t('dash.keys.newNameHint') }),
    h('button', { type: 'submit', class: 'button button-primary' }, t('dash.keys.create'))), async (f) => {
    const name = valueOf(f, 'name')
    const created = /** @type {CreatedKeyAnswer} */ (await post(serverPath(server.slug, '/keys'), name ? { name } : {}))
    f.reset()
    shownId = created.id
    const warning = newId('key-warning')
    replace(fresh, h('div', { class: 'notice notice-success' },
      h('p', { id: warning }, h('strong', null, t('dash.keys.fresh')), ' ', t('dash.keys.freshLead')),
      copyField(created.key, { label: t('dash.keys.copy'), describedBy: warning })))
    replace(calls, examples(server, created.key))
    announce(t('dash.keys.createdNotice'))
    await load()
  }, t('dash.creating'))

  await load()
  return h('section', { class: 'card', id: 'api-keys' },
    h('h2', null, t('dash.keys.title')),
    h('p', null, tn('dash.keys.lead', perMinute)),
    form, fresh, list,
    h('h3', { class: 'section-break' }, t('dash.keys.examples')),
    calls)
}
