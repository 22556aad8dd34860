import { hmacSha256 } from '../ids.ts'
import { answerSnippet, postToCheckedAddress, redirectFailure, type PostOptions } from '../net/checked-post.ts'
import { DeliveryFailure } from '../net/guard.ts'
import { VERSION } from '../version.ts'
import { refusedSend, webhookUrlRefusal } from './webhook-url.ts'

// A test from the owner's Test button has event "test" (X-TSM-Event: test) so that a receiver
// can tell it from a real vote and give no reward.
export type WebhookEvent = 'vote' | 'test'

// X-TSM-Signature: hex HMAC-SHA256 keyed with the secret's UTF-8 bytes, over
// "<X-TSM-Timestamp>.<raw body>".
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return 'sha256=' + hmacSha256(secret, `${timestamp}.${body}`).toString('hex')
}

export interface WebhookRequest {
  url: string
  secret: string
  deliveryId: string // X-TSM-Delivery: the same on every retry, for the receiver to de-duplicate
  event: WebhookEvent
  body: string
}

export interface WebhookOptions extends PostOptions {
  now: () => number
}

// One signed POST to the owner's URL, to the address checked at send time (src/net/checked-post.ts):
// 2xx within the timeout is success; 410 Gone stops the retries. The URL passes the save's rules
// under the site's current policy first (an http:// URL saved while private targets were allowed
// is refused once they are not): such a failure is retried on the schedule like any other, so the
// vote still goes out once the setting is back on, or the owner sets another URL.
export async function sendWebhook(req: WebhookRequest, opts: WebhookOptions): Promise<{ httpStatus: number }> {
  let url: URL
  try {
    url = new URL(req.url)
  } catch {
    throw new DeliveryFailure(`the webhook URL "${req.url}" is not a valid URL`)
  }
  const refused = webhookUrlRefusal(url, opts.allowPrivate)
  if (refused) throw new DeliveryFailure(refusedSend(refused, req.event === 'test'))
  const timestamp = String(Math.floor(opts.now() / 1000))
  const res = await postToCheckedAddress(url, req.body, {
    'Content-Type': 'application/json',
    'User-Agent': `votelist/${VERSION}`,
    'X-TSM-Event': req.event,
    'X-TSM-Delivery': req.deliveryId,
    'X-TSM-Timestamp': timestamp,
    'X-TSM-Signature': signWebhook(req.secret, timestamp, req.body),
  }, opts)
  const status = res.status
  if (status >= 200 && status < 300) {
    void res.body?.cancel().catch(() => {})
    return { httpStatus: status }
  }
  const text = await answerSnippet(res)
  if (status === 410) throw new DeliveryFailure('the receiver answered 410 Gone: it wants no more deliveries of this vote, so retries stop', { httpStatus: status, final: true })
  if (status >= 300 && status < 400) throw redirectFailure(res, 'the receiver')
  if (status === 401 || status === 403) {
    throw new DeliveryFailure(`the receiver answered ${status}${text ? `: "${text}"` : ''} — does it check the signature with this webhook's current secret?`, { httpStatus: status })
  }
  throw new DeliveryFailure(`the receiver answered HTTP ${status}${text ? `: "${text}"` : ''}`, { httpStatus: status })
}
