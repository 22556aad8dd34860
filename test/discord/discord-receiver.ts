import { arrivals } from '../arrivals.ts'

// A stand-in for Discord's "Execute Webhook" endpoint on 127.0.0.1, answering as Discord
// documents it: POST /api/webhooks/{id}/{token} (or /api/v{n}/…) with a JSON body; 204 No Content
// (200 with the message under ?wait=true); 404 "Unknown Webhook" (code 10015) for an unknown id,
// 401 "Invalid Webhook Token" (code 50027) for a wrong token; 400 for a body Discord refuses (not
// JSON, no content nor embed, an embed over its limits); 429 with {message, retry_after, global}
// and Retry-After when a test scripts it. Every success carries the X-RateLimit-* headers.

export const WEBHOOK_ID = '1234567890123456789'
export const WEBHOOK_TOKEN = 'aZ_9-kLmNoPqRsTuVwXyZ0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'

export interface ReceivedMessage {
  headers: Record<string, string>
  query: Record<string, string>
  json: any
}

interface Embed { title?: string; description?: string; fields?: { name?: string; value?: string }[]; footer?: { text?: string } }

// Discord's documented limits on a message and its embeds; the reason, or null when it passes.
const EMPTY = 'Cannot send an empty message'
function refusal(body: any): string | null {
  if (typeof body !== 'object' || body === null) return EMPTY
  const embeds: Embed[] = body.embeds ?? []
  if (!body.content && !embeds.length) return EMPTY
  if (typeof body.content === 'string' && body.content.length > 2000) return 'content: Must be 2000 or fewer in length.'
  if (!Array.isArray(embeds) || embeds.length > 10) return 'embeds: Must be 10 or fewer in length.'
  let total = 0
  for (const e of embeds) {
    if ((e.title?.length ?? 0) > 256 || (e.description?.length ?? 0) > 4096 || (e.footer?.text?.length ?? 0) > 2048) return 'embeds: a text is too long'
    if ((e.fields?.length ?? 0) > 25) return 'embeds.fields: Must be 25 or fewer in length.'
    for (const f of e.fields ?? []) {
      if (!f.name || !f.value || f.name.length > 256 || f.value.length > 1024) return 'embeds.fields: a name or value is empty or too long'
      total += f.name.length + f.value.length
    }
    total += (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text?.length ?? 0)
  }
  if (total > 6000) return 'embeds: Embed size exceeds maximum size of 6000'
  if (body.allowed_mentions !== undefined && !Array.isArray(body.allowed_mentions.parse)) return 'allowed_mentions.parse: must be a list'
  return null
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

type Reply = number | { status: 429; retryAfter: number; header?: string | null; global?: boolean } | { status: number; body?: unknown }

export function startDiscordReceiver() {
  const received = arrivals<ReceivedMessage>()
  const script: Reply[] = []
  let remaining = 4 // what X-RateLimit-Remaining says after a success
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      const path = /^\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([\w-]+)$/.exec(url.pathname)
      if (req.method !== 'POST' || !path) return json(404, { message: '404: Not Found', code: 0 })
      if (path[1] !== WEBHOOK_ID) return json(404, { message: 'Unknown Webhook', code: 10015 })
      if (path[2] !== WEBHOOK_TOKEN) return json(401, { message: 'Invalid Webhook Token', code: 50027 })
      let body: unknown
      try {
        body = JSON.parse(await req.text())
      } catch {
        return json(400, { message: 'The request body contains invalid JSON.', code: 50109 })
      }
      const why = refusal(body)
      if (why === EMPTY) return json(400, { message: EMPTY, code: 50006 })
      if (why) return json(400, { message: `Invalid Form Body: ${why}`, code: 50035 })
      received.push({ headers: Object.fromEntries(req.headers), query: Object.fromEntries(url.searchParams), json: body })
      const reply = script.shift() ?? 204
      if (typeof reply === 'object' && 'retryAfter' in reply) {
        const header = reply.header === undefined ? String(Math.ceil(reply.retryAfter)) : reply.header
        return json(429, { message: 'You are being rate limited.', retry_after: reply.retryAfter, global: reply.global ?? false }, {
          ...(header === null ? {} : { 'retry-after': header }),
          ...(reply.global ? { 'x-ratelimit-global': 'true' } : { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': String(reply.retryAfter) }),
        })
      }
      const status = typeof reply === 'number' ? reply : reply.status
      if (status >= 300) return json(status, typeof reply === 'object' ? reply.body : { message: 'Internal Server Error', code: 0 })
      const limits = { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset-after': '2.5', 'x-ratelimit-bucket': 'b0b' }
      if (url.searchParams.get('wait') === 'true') return json(200, { id: '1', type: 0, content: '', webhook_id: WEBHOOK_ID }, limits)
      return new Response(null, { status: 204, headers: limits })
    },
  })
  return {
    port: server.port!,
    url: (opts: { id?: string; token?: string; query?: string } = {}) =>
      `http://127.0.0.1:${server.port}/api/webhooks/${opts.id ?? WEBHOOK_ID}/${opts.token ?? WEBHOOK_TOKEN}${opts.query ?? ''}`,
    received: received.items,
    // Answers to give to the next messages that pass the checks, in order; then 204.
    reply: (...replies: Reply[]) => { script.push(...replies) },
    waitFor: received.until,
    // X-RateLimit-Remaining of the successes from now on (0: the bucket is spent).
    setRemaining: (n: number) => { remaining = n },
    stop: () => server.stop(true),
  }
}
export type DiscordReceiver = ReturnType<typeof startDiscordReceiver>
