import { checkedAddresses, DeliveryFailure, seconds, type TargetOptions } from './guard.ts'
import { isIP } from './ip.ts'

// One HTTP POST of a delivery to an owner's URL (a webhook receiver, Discord), to the address
// checked: the host is resolved and checked here, at send time, and fetch gets that IP in the
// URL, the real host in the Host header and, for https, as the TLS server name, so the
// certificate is still verified against the host name. Redirects are not followed (the checked
// address is the only one contacted). Network failures come back as DeliveryFailure, in words.

export interface PostOptions extends TargetOptions {
  timeoutMs: number
  ca?: string // tests only: a certificate authority to trust besides the system's
}

// Node's names for certificate problems: a refusal to trust, not a network fault.
const TLS_CODE = /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/

function networkFailure(e: unknown, url: URL, timeoutMs: number): DeliveryFailure {
  const err = e as { name?: string; code?: string; message?: string }
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return new DeliveryFailure(`no answer from ${url.host} within ${seconds(timeoutMs)} (timed out)`)
  if (err.code === 'ECONNREFUSED') return new DeliveryFailure(`connection refused by ${url.host}: nothing listens on that port`)
  if (err.code === 'ECONNRESET') return new DeliveryFailure(`${url.host} closed the connection before answering`)
  if (err.code && TLS_CODE.test(err.code)) return new DeliveryFailure(`the TLS certificate of ${url.hostname} was refused (${err.code})`)
  return new DeliveryFailure(`request to ${url.host} failed: ${err.message ?? String(e)}`)
}

// The connection was never made: nothing was sent, and the host's next address may take it.
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'])

// The host's addresses are tried in the resolver's order while one refuses the connection or
// cannot be reached (an IPv6 address nothing answers on, beside the IPv4 one that serves), within
// the one time limit. A request that reached a receiver is never sent to another address.
export async function postToCheckedAddress(url: URL, body: string, headers: Record<string, string>, opts: PostOptions): Promise<Response> {
  // One time limit for the whole request, the lookup included.
  const deadline = performance.now() + opts.timeoutMs
  const addresses = await checkedAddresses(url.hostname, opts, opts.timeoutMs)
  let failure: unknown
  for (const address of addresses) {
    const direct = new URL(url)
    direct.hostname = isIP(address) === 6 ? `[${address}]` : address
    try {
      return await fetch(direct, {
        method: 'POST',
        body,
        headers: { ...headers, Host: url.host },
        redirect: 'manual',
        signal: AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now()))),
        ...(url.protocol === 'https:' ? { tls: { serverName: url.hostname.replace(/^\[(.*)\]$/, '$1'), ...(opts.ca ? { ca: opts.ca } : {}) } } : {}),
      })
    } catch (e) {
      failure = e
      if (!NOT_CONNECTED.has((e as { code?: string }).code ?? '') || deadline - performance.now() < 1) break
    }
  }
  throw networkFailure(failure, url, opts.timeoutMs)
}

// Printable, one line, short: a receiver's answer shown in the Deliveries tab.
export async function answerSnippet(res: Response): Promise<string> {
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

// A 3xx is a failure that names where it pointed: set the URL to the final address. The Location
// is the receiver's to choose, up to megabytes: only its start goes into the attempt's row.
// The body is not read: it is cancelled (unless the caller read it already), which closes the
// connection now rather than when the time limit aborts the request.
export function redirectFailure(res: Response, what: string): DeliveryFailure {
  if (res.body && !res.body.locked) void res.body.cancel().catch(() => {})
  const location = res.headers.get('location')
  const shown = location === null ? '(no Location)' : location.length > 200 ? `${location.slice(0, 200)}…` : location
  return new DeliveryFailure(`${what} answered ${res.status}, a redirect to ${shown}; redirects are not followed: set the URL to the final address`, { httpStatus: res.status })
}
