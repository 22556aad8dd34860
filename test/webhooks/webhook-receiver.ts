// A webhook receiver for tests. It checks every request the way the contract tells receivers to,
// with its own code (node:crypto, not votelist's signer), and answers what the test scripts.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { arrivals } from '../arrivals.ts'

export interface ReceivedHook {
  headers: Record<string, string>
  body: string
  json: any
  signatureValid: boolean
}

// `hold`: the answer waits for it (a receiver that does not answer in time).
type Reply = number | { status: number; headers?: Record<string, string>; body?: string; hold?: Promise<unknown> }

export function startWebhookReceiver(secret: string, opts: { tls?: { cert: string; key: string } } = {}) {
  const received = arrivals<ReceivedHook>()
  const script: Reply[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    ...(opts.tls ? { tls: opts.tls } : {}),
    async fetch(req) {
      const body = await req.text()
      const ts = req.headers.get('x-tsm-timestamp') ?? ''
      const expected = Buffer.from('sha256=' + createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex'))
      const given = Buffer.from(req.headers.get('x-tsm-signature') ?? '')
      received.push({
        headers: Object.fromEntries(req.headers),
        body,
        json: JSON.parse(body),
        signatureValid: given.length === expected.length && timingSafeEqual(given, expected),
      })
      const reply = script.shift() ?? 204
      const r = typeof reply === 'number' ? { status: reply } : reply
      await r.hold
      return new Response(r.body ?? null, { status: r.status, headers: r.headers })
    },
  })
  return {
    port: server.port!,
    url: (path = '/hook', host = '127.0.0.1') => `${opts.tls ? 'https' : 'http'}://${host}:${server.port}${path}`,
    received: received.items,
    // Answers to give, in order; then 204.
    reply: (...replies: Reply[]) => { script.push(...replies) },
    waitFor: received.until,
    stop: () => server.stop(true),
  }
}
export type WebhookReceiver = ReturnType<typeof startWebhookReceiver>
