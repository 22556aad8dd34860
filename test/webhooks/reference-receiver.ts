// A complete votelist webhook receiver: check the signature and the timestamp, then reward once
// per vote. Run: WEBHOOK_SECRET=whsec_… PORT=8000 bun reference-receiver.ts
import { createHmac, timingSafeEqual } from 'node:crypto'

const secret = process.env.WEBHOOK_SECRET ?? ''
const rewarded = new Set<string>() // vote ids already rewarded: keep them in your database

const server = Bun.serve({
  hostname: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 8000),
  async fetch(req) {
    if (req.method !== 'POST') return new Response('POST only', { status: 405 })
    const body = await req.text() // the raw body: the signature covers these exact bytes
    const timestamp = req.headers.get('x-tsm-timestamp') ?? ''
    const expected = Buffer.from('sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'))
    const given = Buffer.from(req.headers.get('x-tsm-signature') ?? '')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return new Response('bad signature', { status: 401 })
    }
    if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 5 * 60) {
      return new Response('timestamp too old', { status: 401 })
    }
    const event = JSON.parse(body)
    // Retries repeat the same vote (and X-TSM-Delivery): reward each vote id once. "test" events
    // come from the Test button and reward nobody.
    if (event.event === 'vote' && !rewarded.has(event.vote.id)) {
      rewarded.add(event.vote.id)
      console.log(`reward ${event.vote.pseudo} for vote ${event.vote.id}`)
    }
    return new Response('ok')
  },
})
console.log(`listening on ${server.url}`)
