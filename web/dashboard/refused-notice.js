// A saved webhook or Discord URL that the site no longer sends to (its admin turned
// network.allow_private_targets off after the save): the reason, and what to do, under the field.
import { h } from './dom.js'
import { t } from './i18n.js'

/** @param {{ refused?: string } | null} saved */
export const refusedNotice = (saved) => (saved?.refused ? h('p', { class: 'notice notice-error' }, t('dash.channel.refused', { reason: saved.refused })) : null)
