import { answerSnippet, postToCheckedAddress, redirectFailure, type PostOptions } from '../net/checked-post.ts'
import { DeliveryFailure, seconds } from '../net/guard.ts'
import { VERSION } from '../version.ts'
import { refusedSend } from '../webhooks/webhook-url.ts'
import { discordUrlRefusal } from './discord-url.ts'

// One message to a Discord webhook, as Discord documents its answers:
// - 204 No Content (200 with the message under ?wait=true): posted.
// - 429 Too Many Requests, with `{"message", "retry_after": <seconds, a float>, "global"}` and a
//   Retry-After header (seconds; a proxy in front of Discord may send an HTTP date instead, as RFC
//   9110 allows): the next attempt waits at least that long (the later of both).
// - 404 Unknown Webhook (the webhook was deleted), 401 Invalid Webhook Token, 400 (the message
//   itself was refused): the same message to the same URL can never succeed, so the retries stop.
// - anything else (5xx, 403, a network failure): retried on the schedule.
// A 2xx whose X-RateLimit-Remaining is 0 asks for a pause of X-RateLimit-Reset-After seconds
// before the next message to this webhook: `pauseMs`.

export interface DiscordResult {
  httpStatus: number
  pauseMs?: number
}

const secondsHeader = (res: Response, name: string): number | null => {
  const n = Number(res.headers.get(name))
  return res.headers.has(name) && Number.isFinite(n) && n >= 0 ? n : null
}

// Discord's error body: {"message": "Unknown Webhook", "code": 10015}.
function discordError(text: string): { message?: string; code?: number; retry_after?: number; global?: boolean } {
  try {
    const body = JSON.parse(text)
    return typeof body === 'object' && body !== null ? body : {}
  } catch {
    return {}
  }
}

// The longest wait an answer can impose. Discord asks for seconds (an hour for a Cloudflare ban);
// an answer asking for more is broken or hostile: taken as is, 1e20 s would park the message for
// good (a time no Date can show, beyond PostgreSQL's bigint) and hold every message to the webhook.
// After an hour the next attempt asks again.
export const MAX_WAIT_MS = 3_600_000

// Retry-After in seconds: delta-seconds, or an HTTP date (RFC 9110 §10.2.3) counted from the
// answer's own Date, so that a clock set wrong on either side does not change the wait (from ours
// when the answer has none); a date already past asks for no wait.
function retryAfterHeader(res: Response): number | null {
  const value = res.headers.get('retry-after')
  if (value === null || !Number.isNaN(Number(value))) return secondsHeader(res, 'retry-after')
  const at = Date.parse(value)
  if (Number.isNaN(at)) return null
  const date = Date.parse(res.headers.get('date') ?? '')
  return Math.max(0, at - (Number.isNaN(date) ? Date.now() : date)) / 1000
}

// Waits no earlier than both the body's retry_after and the Retry-After header; null when Discord
// (or a proxy in front of it) said neither.
function retryAfterMs(res: Response, body: { retry_after?: number }): number | null {
  const fromBody = typeof body.retry_after === 'number' && Number.isFinite(body.retry_after) && body.retry_after >= 0 ? body.retry_after : null
  const fromHeader = retryAfterHeader(res)
  if (fromBody === null && fromHeader === null) return null
  return Math.ceil(Math.max(fromBody ?? 0, fromHeader ?? 0) * 1000)
}

// `test`: the Test button's message, which is never sent again: a rate limit tells the owner when
// to press Test again rather than promise a next attempt. The URL passes the save's rules under the
// site's current policy first (src/discord/discord-url.ts): a URL that is not Discord's, saved while
// private targets were allowed, is refused once they are not (and retried on the schedule).
export async function sendDiscord(webhookUrl: string, body: string, opts: PostOptions & { test?: boolean }): Promise<DiscordResult> {
  let url: URL
  try {
    url = new URL(webhookUrl)
  } catch {
    throw new DeliveryFailure(`the Discord webhook URL "${webhookUrl}" is not a valid URL`)
  }
  const refused = discordUrlRefusal(url, opts.allowPrivate)
  if (refused) throw new DeliveryFailure(refusedSend(refused, opts.test ?? false))
  const res = await postToCheckedAddress(url, body, { 'Content-Type': 'application/json', 'User-Agent': `votelist/${VERSION}` }, opts)
  const status = res.status
  if (status >= 200 && status < 300) {
    void res.body?.cancel().catch(() => {})
    const resetAfter = secondsHeader(res, 'x-ratelimit-reset-after')
    const spent = res.headers.get('x-ratelimit-remaining') === '0' && resetAfter !== null
    return spent ? { httpStatus: status, pauseMs: Math.min(Math.ceil(resetAfter * 1000), MAX_WAIT_MS) } : { httpStatus: status }
  }
  if (status >= 300 && status < 400) throw redirectFailure(res, 'Discord')
  const text = await answerSnippet(res)
  const err = discordError(text)
  const said = err.message ? `${err.message}${err.code ? ` (code ${err.code})` : ''}` : text
  const answer = `Discord answered ${status}${said ? `: "${said}"` : ''}`
  if (status === 429) {
    const asked = retryAfterMs(res, err)
    if (asked === null) throw new DeliveryFailure(`${answer}, a rate limit without saying how long to wait`, { httpStatus: status })
    const waitMs = Math.min(asked, MAX_WAIT_MS)
    const capped = asked > MAX_WAIT_MS ? ' (it asked for more than the longest wait votelist allows)' : ''
    const after = opts.test ? `; a test is not sent again: press Test after ${seconds(waitMs)}` : `, so the next attempt waits ${seconds(waitMs)}, as Discord asked`
    throw new DeliveryFailure(`${answer}: rate limited${err.global ? ' (across all of this site\'s webhooks)' : ''}${after}${capped}`, { httpStatus: status, retryAfterMs: waitMs })
  }
  if (status === 404) throw new DeliveryFailure(`${answer} — the webhook no longer exists in Discord: set a new webhook URL, then Redeliver`, { httpStatus: status, final: true })
  if (status === 401) throw new DeliveryFailure(`${answer} — the URL's token is wrong (was the webhook's URL reset?): set the new URL, then Redeliver`, { httpStatus: status, final: true })
  if (status === 400) throw new DeliveryFailure(`${answer} — Discord refused this message, and would refuse it again, so retries stop`, { httpStatus: status, final: true })
  throw new DeliveryFailure(answer, { httpStatus: status })
}
