// A delivery failure in a few words an owner recognises, above the full sentence the site wrote
// (which already says what to check, in English: it is the delivery's own record). Matched on
// the wording of src/push, src/webhooks and src/discord.
/** @import { TextKey, Translator } from '../translate.js' */

/** @type {Array<[RegExp, TextKey]>} */
const RULES = [
  [/interrupted/i, 'dash.failure.interrupted'],
  [/connection refused|ECONNREFUSED/i, 'dash.failure.refused'],
  [/timed out/i, 'dash.failure.timedOut'],
  [/Unknown service/i, 'dash.failure.unknownService'],
  [/wrong token|invalid token|Signature is not valid/i, 'dash.failure.wrongToken'],
  [/bad key|Could not decrypt/i, 'dash.failure.badKey'],
  [/DNS failure|could not be resolved|does not resolve/i, 'dash.failure.hostNotFound'],
  // A saved URL the site's rules refuse now (before "private": they name network.allow_private_targets).
  [/not allowed on this site|only posts to Discord's own|the saved URL is refused|only query a Discord webhook URL may have/i, 'dash.failure.urlRefused'],
  [/private|reserved address/i, 'dash.failure.addressRefused'],
  [/not a Votifier listener|speaks only v1/i, 'dash.failure.notVotifier'],
  [/redirect/i, 'dash.failure.redirect'],
  [/certificate|TLS/i, 'dash.failure.tls'],
  [/no route|unreachable/i, 'dash.failure.unreachable'],
  [/reset the connection|closed the connection/i, 'dash.failure.closed'],
  [/removed from the server's settings/i, 'dash.failure.removed'],
  [/too many deliveries/i, 'dash.failure.busy'],
]

// Answers of a receiver that say more than their status: Discord's, whose status alone
// (404, 401, 400, 429) an owner would not read as "the webhook was deleted".
/** @type {Array<[RegExp, TextKey]>} */
const ANSWER_RULES = [
  [/no longer exists in Discord/i, 'dash.failure.webhookDeleted'],
  [/the URL's token is wrong/i, 'dash.failure.wrongWebhookToken'],
  [/Discord refused this message/i, 'dash.failure.messageRefused'],
  [/rate limited/i, 'dash.failure.rateLimited'],
]

/**
 * @param {Pick<Translator, 't'>} tr
 * @param {string | null} error
 * @param {number | null} httpStatus
 */
export function failureLabel(tr, error, httpStatus) {
  // The Test button's results carry no status: the sentence alone names Discord's answers.
  for (const [pattern, key] of ANSWER_RULES) if (pattern.test(error ?? '')) return tr.t(key)
  if (httpStatus) return tr.t('dash.failure.http', { status: String(httpStatus) })
  for (const [pattern, key] of RULES) if (pattern.test(error ?? '')) return tr.t(key)
  return tr.t('dash.failure.failed')
}

/** @type {Record<'votifier' | 'webhook' | 'discord', TextKey>} */
export const CHANNEL_NAMES = { votifier: 'dash.channel.votifier', webhook: 'dash.channel.webhook', discord: 'dash.channel.discord' }

/** @type {Record<'succeeded' | 'failed' | 'gave_up' | 'pending', TextKey>} */
export const OUTCOMES = {
  succeeded: 'dash.outcome.succeeded',
  failed: 'dash.outcome.failed',
  gave_up: 'dash.outcome.gaveUp',
  pending: 'dash.outcome.pending',
}
