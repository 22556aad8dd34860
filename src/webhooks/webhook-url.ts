// The rules a webhook URL must pass under the site's network policy: when the owner saves it, and
// again before every send, since the admin may have turned network.allow_private_targets off after
// it was saved. `save`: the save's refusal (a 400 on `url`); `send`: what the attempt records.
export interface UrlRefusal {
  save: string
  send: string
}

// A rule that does not depend on the site's policy (a saved URL passed it): the save's words.
export const refusal = (save: string): UrlRefusal => ({ save, send: `the saved URL is refused (${save}): set another URL` })

// The attempt's error: the reason, and how to send the vote once the URL is fixed.
export const refusedSend = (r: UrlRefusal, test: boolean) => `${r.send}, then ${test ? 'press Test again' : 'Redeliver'}`

// https only; plain http only where private targets are allowed (a local or test install),
// since the payload would otherwise cross the internet readable and replayable.
export function webhookUrlRefusal(url: URL, allowPrivate: boolean): UrlRefusal | null {
  if (url.protocol === 'http:' && !allowPrivate) {
    return {
      save: 'url must use https:// (http:// is accepted only with network.allow_private_targets = true)',
      send: 'http:// targets are not allowed on this site (network.allow_private_targets is off): set an https:// URL',
    }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refusal('url must be an https:// URL')
  if (url.username || url.password) return refusal('url must not contain a user name or password')
  if (url.hash) return refusal('url must not contain a #fragment')
  return null
}
