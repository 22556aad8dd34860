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

// `answerAfterMs`: a slow receiver, whose every answer waits this long after the request arrived.
export function startWebhookReceiver(secret: string, opts: { tls?: { cert: string; key: string }; answerAfterMs?: () => number } = {}) {
  const received = arrivals<ReceivedHook>()
  const arrivedAt: number[] = [] // Date.now() when each request arrived, in the order of `received`
  const script: Reply[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    ...(opts.tls ? { tls: opts.tls } : {}),
    async fetch(req) {
      const body = await req.text()
      arrivedAt.push(Date.now())
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
      if (opts.answerAfterMs) await Bun.sleep(opts.answerAfterMs())
      return new Response(r.body ?? null, { status: r.status, headers: r.headers })
    },
  })
  return {
    port: server.port!,
    url: (path = '/hook', host = '127.0.0.1') => `${opts.tls ? 'https' : 'http'}://${host}:${server.port}${path}`,
    received: received.items,
    arrivedAt,
    // Answers to give, in order; then 204.
    reply: (...replies: Reply[]) => { script.push(...replies) },
    waitFor: received.until,
    stop: () => server.stop(true),
  }
}
export type WebhookReceiver = ReturnType<typeof startWebhookReceiver>
