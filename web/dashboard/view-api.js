// The "API and webhooks" tab: the ways a vote reaches the owner, the Test button, and the badge
// with the vote link.
import { append, h } from './dom.js'
import { t } from './i18n.js'
import { badgeSection } from './badge-section.js'
import { discordSection } from './discord-section.js'
import { keysSection } from './keys-section.js'
import { testPanel } from './test-panel.js'
import { votifierSection } from './votifier-section.js'
import { webhookSection } from './webhook-section.js'
/** @import { ServerDetail } from '../types/api' */

/**
 * @param {HTMLElement} el
 * @param {ServerDetail} server
 */
export async function renderApiTab(el, server) {
  append(el,
    h('p', { class: 'lead' }, t('dash.api.lead')),
    votifierSection(server),
    webhookSection(server),
    discordSection(server),
    testPanel(server),
    await keysSection(server),
    badgeSection(server))
}
