// A delivery failure in a few words an owner recognises, above the full sentence the site wrote
// (which already says what to check). Matched on the wording of src/push, src/webhooks and
// src/discord.
/** @type {Array<[RegExp, string]>} */
const RULES = [
  [/interrupted/i, 'Interrupted'],
  [/connection refused|ECONNREFUSED/i, 'Connection refused'],
  [/timed out/i, 'Timed out'],
  [/Unknown service/i, 'Unknown service name'],
  [/wrong token|invalid token|Signature is not valid/i, 'Wrong token'],
  [/bad key|Could not decrypt/i, 'Bad key'],
  [/DNS failure|could not be resolved|does not resolve/i, 'Host not found'],
  [/private|reserved address/i, 'Address not allowed'],
  [/not a Votifier listener|speaks only v1/i, 'Not a Votifier listener'],
  [/redirect/i, 'Redirect not followed'],
  [/certificate|TLS/i, 'TLS certificate refused'],
  [/no route|unreachable/i, 'Unreachable'],
  [/reset the connection|closed the connection/i, 'Connection closed'],
  [/removed from the server's settings/i, 'Channel removed'],
  [/too many deliveries/i, 'Busy'],
]

// Answers of a receiver that say more than their status: Discord's, whose status alone
// (404, 401, 400, 429) an owner would not read as "the webhook was deleted".
/** @type {Array<[RegExp, string]>} */
const ANSWER_RULES = [
  [/no longer exists in Discord/i, 'Webhook deleted'],
  [/the URL's token is wrong/i, 'Wrong webhook token'],
  [/Discord refused this message/i, 'Message refused'],
  [/rate limited/i, 'Rate limited'],
]

/**
 * @param {string | null} error
 * @param {number | null} httpStatus
 */
export function failureLabel(error, httpStatus) {
  // The Test button's results carry no status: the sentence alone names Discord's answers.
  for (const [pattern, label] of ANSWER_RULES) if (pattern.test(error ?? '')) return label
  if (httpStatus) return `HTTP ${httpStatus}`
  for (const [pattern, label] of RULES) if (pattern.test(error ?? '')) return label
  return 'Failed'
}

export const CHANNEL_NAMES = { votifier: 'Votifier', webhook: 'Webhook', discord: 'Discord' }

export const OUTCOMES = {
  succeeded: 'Delivered',
  failed: 'Failed',
  gave_up: 'Gave up',
  pending: 'In progress',
}
