import { createHmac } from 'node:crypto'
import { isIP } from 'node:net'
import { checkedAddress, DeliveryFailure, seconds, type TargetOptions } from '../net/guard.ts'
import { VERSION } from '../version.ts'

// A test from the owner's Test button has event "test" (X-TSM-Event: test) so that a receiver
// can tell it from a real vote and give no reward.
export type WebhookEvent = 'vote' | 'test'

// X-TSM-Signature: hex HMAC-SHA256 keyed with the secret's UTF-8 bytes, over
// "<X-TSM-Timestamp>.<raw body>".
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')
}

export interface WebhookRequest {
  url: string
  secret: string
  deliveryId: string // X-TSM-Delivery: the same on every retry, for the receiver to de-duplicate
  event: WebhookEvent
  body: string
}

export interface WebhookOptions extends TargetOptions {
  timeoutMs: number
  now: () => number
  ca?: string // tests only: a certificate authority to trust besides the system's
}

// Node's names for certificate problems: a refusal to trust, not a network fault.
const TLS_CODE = /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/

// Printable, one line, short: a receiver's answer shown in the Deliveries tab.
async function snippet(res: Response): Promise<string> {
  const reader = res.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < 1024) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.length
    }
  } catch {
    // A body cut short still shows what arrived.
  } finally {
    void reader.cancel().catch(() => {})
  }
  return Buffer.concat(chunks).toString('utf8').replace(/[\x00-\x1f\x7f]+/g, ' ').trim().slice(0, 200)
}

function networkFailure(e: unknown, url: URL, timeoutMs: number): DeliveryFailure {
  const err = e as { name?: string; code?: string; message?: string }
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return new DeliveryFailure(`no answer from ${url.host} within ${seconds(timeoutMs)} (timed out)`)
  if (err.code === 'ECONNREFUSED') return new DeliveryFailure(`connection refused by ${url.host}: nothing listens on that port`)
  if (err.code === 'ECONNRESET') return new DeliveryFailure(`${url.host} closed the connection before answering`)
  if (err.code && TLS_CODE.test(err.code)) return new DeliveryFailure(`the TLS certificate of ${url.hostname} was refused (${err.code})`)
  return new DeliveryFailure(`request to ${url.host} failed: ${err.message ?? String(e)}`)
}

// One signed POST to the owner's URL. The host is resolved and checked here, at send time, and
// the request goes to that address: fetch gets the IP in the URL, the real host in the Host
// header and, for https, as the TLS server name, so the certificate is still verified against the
// host name. Redirects are not followed (the checked address is the only one contacted); 2xx
// within the timeout is success; 410 Gone stops the retries.
export async function sendWebhook(req: WebhookRequest, opts: WebhookOptions): Promise<{ httpStatus: number }> {
  let url: URL
  try {
    url = new URL(req.url)
  } catch {
    throw new DeliveryFailure(`the webhook URL "${req.url}" is not a valid URL`)
  }
  const address = await checkedAddress(url.hostname, opts)
  const direct = new URL(url)
  direct.hostname = isIP(address) === 6 ? `[${address}]` : address
  const timestamp = String(Math.floor(opts.now() / 1000))
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': `votelist/${VERSION}`,
    'X-TSM-Event': req.event,
    'X-TSM-Delivery': req.deliveryId,
    'X-TSM-Timestamp': timestamp,
    'X-TSM-Signature': signWebhook(req.secret, timestamp, req.body),
    Host: url.host,
  }
  let res: Response
  try {
    res = await fetch(direct, {
      method: 'POST',
      body: req.body,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(opts.timeoutMs),
      ...(url.protocol === 'https:' ? { tls: { serverName: url.hostname.replace(/^\[(.*)\]$/, '$1'), ...(opts.ca ? { ca: opts.ca } : {}) } } : {}),
    })
  } catch (e) {
    throw networkFailure(e, url, opts.timeoutMs)
  }
  const status = res.status
  if (status >= 200 && status < 300) {
    void res.body?.cancel().catch(() => {})
    return { httpStatus: status }
  }
  const text = await snippet(res)
  if (status === 410) throw new DeliveryFailure('the receiver answered 410 Gone: it wants no more deliveries of this vote, so retries stop', { httpStatus: status, final: true })
  if (status >= 300 && status < 400) {
    throw new DeliveryFailure(`the receiver answered ${status}, a redirect to ${res.headers.get('location') ?? '(no Location)'}; redirects are not followed: set the webhook URL to the final address`, { httpStatus: status })
  }
  if (status === 401 || status === 403) {
    throw new DeliveryFailure(`the receiver answered ${status}${text ? `: "${text}"` : ''} — does it check the signature with this webhook's current secret?`, { httpStatus: status })
  }
  throw new DeliveryFailure(`the receiver answered HTTP ${status}${text ? `: "${text}"` : ''}`, { httpStatus: status })
}
