import { describe, expect, test } from 'bun:test'

import { failureLabel } from '../../web/dashboard/explain.js'
import { translatorFor } from '../../src/i18n/translate.ts'

const en = translatorFor('en')
const fr = translatorFor('fr')

// The few words the dashboard puts above a delivery failure, for the sentences the push and
// webhook and Discord code write (docs/owners.md, "Votifier", "Webhooks" and "Discord").
describe('failureLabel', () => {
  test('names refused, timed out, wrong token, bad key and the other usual causes', () => {
    const cases: [string, number | null, string][] = [
      ['connection refused by mc.example.net:8192: nothing listens on that port (is the Votifier listener running, and is the port right?)', null, 'Connection refused'],
      ['no connection to mc.example.net:8192 within 5 s (timed out): is the host up and the port open to the internet?', null, 'Timed out'],
      ['connected to mc.example.net:8192, but no greeting came within 5 s (timed out)', null, 'Timed out'],
      ['the listener refused the vote: CorruptedFrameException: Signature is not valid (invalid token?) — wrong token: it differs from the token under "tokens:" in the listener\'s config', null, 'Wrong token'],
      ['the listener refused the vote: RuntimeException: Unknown service \'MyServerList\' — add the line "MyServerList: <token>" under "tokens:" in the listener\'s config', null, 'Unknown service name'],
      ['bad key: the stored public key is 4096-bit; Votifier needs the listener\'s 2048-bit rsa/public.key', null, 'Bad key'],
      ['DNS failure: mc.example.invalid could not be resolved (check the host name)', null, 'Host not found'],
      ['private target refused: mc.example.net resolves to 10.0.0.7; votelist only connects to public addresses', null, 'Address not allowed'],
      ['http:// targets are not allowed on this site (network.allow_private_targets is off): set an https:// URL, then Redeliver', null, 'URL not allowed'],
      ['this site only posts to Discord\'s own webhook URLs, https://discord.com/api/webhooks/<id>/<token> (network.allow_private_targets is off): set the URL the channel\'s Integrations → Webhooks → Copy Webhook URL gives, then Redeliver', null, 'URL not allowed'],
      ['the receiver answered HTTP 503', 503, 'HTTP 503'],
      ['the receiver answered HTTP 429', 429, 'HTTP 429'],
      ['Discord answered 429: "You are being rate limited.": rate limited, so the next attempt waits 2 s, as Discord asked', 429, 'Rate limited'],
      ['Discord answered 404: "Unknown Webhook (code 10015)" — the webhook no longer exists in Discord: set a new webhook URL, then Redeliver', 404, 'Webhook deleted'],
      ['Discord answered 401: "Invalid Webhook Token (code 50027)" — the URL\'s token is wrong (was the webhook\'s URL reset?): set the new URL, then Redeliver', 401, 'Wrong webhook token'],
      ['Discord answered 400: "Cannot send an empty message (code 50006)" — Discord refused this message, and would refuse it again, so retries stop', 400, 'Message refused'],
      ['Discord answered 502: "Bad Gateway"', 502, 'HTTP 502'],
      ['Discord answered 404: "Unknown Webhook (code 10015)" — the webhook no longer exists in Discord: set a new webhook URL, then Redeliver', null, 'Webhook deleted'],
      ['interrupted: votelist stopped during this attempt, so its outcome is unknown (a queued delivery is tried again)', null, 'Interrupted'],
      ['something nobody foresaw', null, 'Failed'],
    ]
    for (const [error, status, label] of cases) expect({ error, label: failureLabel(en, error, status) }).toEqual({ error, label })
  })

  test('in the visitor\'s language', () => {
    expect(failureLabel(fr, 'connection refused by mc.example.net:8192: nothing listens on that port', null)).toBe('Connexion refusée')
    expect(failureLabel(fr, 'the receiver answered HTTP 503', 503)).toBe('HTTP 503')
  })
})
