// Votes to Discord: the webhook URL of a Discord channel, to which each vote posts a message.
import { del, put, serverPath } from './api.js'
import { announce, h, replace } from './dom.js'
import { actionButton, field, formError, onSubmit, valueOf } from './forms.js'
/** @import { DiscordAnswer, DiscordSettings, ServerDetail } from '../types/api' */

/** @param {ServerDetail} server */
export function discordSection(server) {
  const section = h('section', { class: 'card', id: 'discord' })
  /** @type {DiscordSettings | null} */
  let discord = server.discord

  function draw() {
    const form = onSubmit(h('form', { class: 'inline-fields' },
      formError(),
      field({
        name: 'url', label: 'Discord webhook URL', type: 'url', value: discord?.url ?? '', placeholder: 'https://discord.com/api/webhooks/…',
        hint: 'In Discord: the channel\'s settings → Integrations → Webhooks → New Webhook → Copy Webhook URL. Keep it private: anyone with it can post in the channel.',
      }),
      h('button', { type: 'submit', class: 'button button-primary' }, discord ? 'Save URL' : 'Save the Discord webhook')), async (f) => {
      discord = /** @type {DiscordAnswer} */ (await put(serverPath(server.slug, '/discord'), { url: valueOf(f, 'url') })).discord
      draw()
      announce('Discord webhook saved. Press Test to see the message in the channel.')
    })
    replace(section,
      h('h2', null, 'Discord'),
      h('p', null, 'A message in a Discord channel for every vote: the player, the server and its votes this month. Names cannot mention or ping anyone.'),
      form,
      discord ? actionButton('Remove the Discord webhook', async () => {
        await del(serverPath(server.slug, '/discord'))
        discord = null
        draw()
        announce('Discord webhook removed.')
      }, { className: 'button button-danger', confirmText: 'Remove the Discord webhook? Votes are no longer posted to Discord.' }) : null)
  }
  draw()
  return section
}
