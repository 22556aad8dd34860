// Votes to Discord: the webhook URL of a Discord channel, to which each vote posts a message.
import { del, put, serverPath } from './api.js'
import { announce, h, replace } from './dom.js'
import { actionButton, field, formError, onSubmit, valueOf } from './forms.js'
import { t } from './i18n.js'
import { refusedNotice } from './refused-notice.js'
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
        name: 'url', label: t('dash.discord.url'), type: 'url', value: discord?.url ?? '', placeholder: 'https://discord.com/api/webhooks/…',
        hint: t('dash.discord.urlHint'),
      }),
      h('button', { type: 'submit', class: 'button button-primary' }, t(discord ? 'dash.discord.saveUrl' : 'dash.discord.save'))), async (f) => {
      discord = /** @type {DiscordAnswer} */ (await put(serverPath(server.slug, '/discord'), { url: valueOf(f, 'url') })).discord
      draw()
      announce(t('dash.discord.saved'))
    }, t('dash.saving'), 'discord')
    replace(section,
      h('h2', null, t('dash.discord.title')),
      h('p', null, t('dash.discord.lead')),
      form,
      refusedNotice(discord),
      discord ? actionButton(t('dash.discord.remove'), async () => {
        await del(serverPath(server.slug, '/discord'))
        discord = null
        draw()
        announce(t('dash.discord.removed'))
      }, { className: 'button button-danger', confirmText: t('dash.discord.confirmRemove') }) : null)
  }
  draw()
  return section
}
