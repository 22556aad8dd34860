// API keys of the verification API (shown once at creation, listed by their prefix, revoked at
// once), and ready-to-copy calls of check and claim with the owner's key.
import { del, get, post, serverPath } from './api.js'
import { announce, h, newId, replace, timeElement } from './dom.js'
import { copyField } from './copy.js'
import { actionButton, field, formError, onSubmit, valueOf } from './forms.js'
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
    h('h4', null, 'Has this player voted?'),
    h('p', { class: 'muted' }, 'Answers hasVoted, votedAt, nextVoteAt and claimed for the last 120 minutes (window=1…1440). Add format=text for a plain 1 or 0.'),
    copyField(`curl -s "${base}/api/v1/votes/check?pseudo=Steve" -H "X-Api-Key: ${shown}"`, { block: true }),
    h('h4', null, 'Claim the vote (one reward per vote)'),
    h('p', { class: 'muted' }, 'Marks the oldest unclaimed vote as claimed: claimed=true the first time, then reason ALREADY_CLAIMED; NO_VOTE without a recent vote.'),
    copyField(`curl -s -X POST "${base}/api/v1/votes/claim?pseudo=Steve" -H "X-Api-Key: ${shown}"`, { block: true }),
    key ? null : h('p', { class: 'hint' }, `Replace ${PLACEHOLDER} with one of this server's keys (create one above: it is shown only once).`),
  ]
}

/** @param {Server} server */
export async function keysSection(server) {
  const list = h('div', { class: 'keys-list' })
  const fresh = h('div', { class: 'new-key', 'aria-live': 'polite' })
  const calls = h('div', { class: 'examples' }, examples(server, null))

  async function load() {
    const { keys } = /** @type {KeysAnswer} */ (await get(serverPath(server.slug, '/keys')))
    if (!keys.length) return replace(list, h('p', { class: 'muted' }, 'No API key yet.'))
    replace(list, dataTable('Active API keys', ['Key', 'Name', 'Created', 'Last used', ''],
      h('tbody', null, keys.map((k) => h('tr', { dataset: { keyId: k.id } },
        cell('Key', h('code', null, `${k.prefix}…`)),
        cell('Name', k.name || h('span', { class: 'muted' }, '—')),
        cell('Created', timeElement(k.createdAt)),
        cell('Last used', k.lastUsedAt ? timeElement(k.lastUsedAt) : h('span', { class: 'muted' }, 'never')),
        cell('', actionButton('Revoke', async () => {
          await del(serverPath(server.slug, `/keys/${encodeURIComponent(k.id)}`))
          announce(`The key ${k.prefix}… is revoked.`)
          await load()
        }, {
          className: 'button-small button-danger',
          ariaLabel: `Revoke the key ${k.prefix}…${k.name ? ` (${k.name})` : ''}`,
          confirmText: `Revoke the key ${k.prefix}…? Plugins using it are refused from now on.`,
        })))))))
  }

  const form = onSubmit(h('form', { class: 'inline-fields' },
    formError(),
    field({ name: 'name', label: 'Name of the new key', optional: true, placeholder: 'lobby plugin', hint: 'To tell keys apart, e.g. where it is used.' }),
    h('button', { type: 'submit', class: 'button button-primary' }, 'Create a key')), async (f) => {
    const name = valueOf(f, 'name')
    const created = /** @type {CreatedKeyAnswer} */ (await post(serverPath(server.slug, '/keys'), name ? { name } : {}))
    f.reset()
    const warning = newId('key-warning')
    replace(fresh, h('div', { class: 'notice notice-success' },
      h('p', { id: warning }, h('strong', null, 'Your new key. '), 'Copy it now: it is shown only this once (the site keeps only a hash of it).'),
      copyField(created.key, { label: 'Copy the key', describedBy: warning })))
    replace(calls, examples(server, created.key))
    announce('Key created. Copy it now: it is shown only once.')
    await load()
  }, 'Creating…')

  await load()
  return h('section', { class: 'card', id: 'api-keys' },
    h('h2', null, 'Verification API'),
    h('p', null, 'Your plugin or website asks the site whether a player voted, then claims the vote to reward it once. No port to open on your side. A key allows 600 requests a minute.'),
    form, fresh, list,
    h('h3', { class: 'section-break' }, 'Examples with your key'),
    calls)
}
