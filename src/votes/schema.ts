import { t } from 'elysia'
import { ErrorBody, Iso } from '../http/schema.ts'

// Bodies and answers of the vote form's routes.

export const VoteBody = t.Object({
  pseudo: t.Optional(t.String({ error: 'pseudo must be a player name, sent as text', description: 'The player name: 3–16 of A–Z, a–z, 0–9, _ (Bedrock servers also allow inner spaces and one leading "." or "*").', examples: ['Steve'] })),
  altcha: t.Optional(t.String({ error: 'altcha must be the captcha widget\'s answer (text)', description: 'The captcha widget\'s answer (base64), required when votes.captcha = "pow".' })),
  ipv4Token: t.Optional(t.String({ error: 'ipv4Token must be the token of GET /api/v1/vote-token (text)', description: 'Dual-stack token from GET {site.ipv4_url}/api/v1/vote-token.' })),
  ipv6Token: t.Optional(t.String({ error: 'ipv6Token must be the token of GET /api/v1/vote-token (text)', description: 'Dual-stack token from GET {site.ipv6_url}/api/v1/vote-token.' })),
}, { additionalProperties: true })

export const VoteCreated = t.Object({
  ok: t.Literal(true),
  vote: t.Object({ id: t.String(), pseudo: t.String(), createdAt: Iso }),
  nextVoteAt: Iso,
})

export const AddressTokenBody = t.Object({
  ok: t.Literal(true),
  token: t.String(),
  address: t.String(),
  family: t.Union([t.Literal(4), t.Literal(6)]),
  expiresAt: Iso,
})

// A vote refused: the error body, and with VOTE_TOO_SOON the time the next vote is possible.
export const VoteRefused = t.Object({
  ...ErrorBody.properties,
  nextVoteAt: t.Optional(t.String({ description: 'VOTE_TOO_SOON only: when the pseudo and the address may vote again, ISO 8601 UTC', examples: ['2026-11-22T12:15:30.123Z'] })),
})
