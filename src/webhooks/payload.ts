import { createHmac } from 'node:crypto'
import type { VoteEvent } from '../deliveries/repo.ts'

export type WebhookEvent = 'vote' | 'test'

// The contract's body. A test from the owner's Test button has event "test" (and X-TSM-Event:
// test) so that a receiver can tell it from a real vote and give no reward.
export function webhookBody(event: VoteEvent, kind: WebhookEvent): string {
  return JSON.stringify({
    event: kind,
    server: { id: event.server.id, slug: event.server.slug, name: event.server.name },
    vote: { id: event.vote.id, pseudo: event.vote.pseudo, createdAt: new Date(event.vote.createdAt).toISOString() },
    monthlyVotes: event.monthlyVotes,
  })
}

// X-TSM-Signature: hex HMAC-SHA256 keyed with the secret's UTF-8 bytes, over
// "<X-TSM-Timestamp>.<raw body>".
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')
}
