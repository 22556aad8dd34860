import { t } from 'elysia'
import { Iso } from '../http/schema.ts'

// The answer of GET and POST /api/v1/me/servers/{slug}/verification.
export const VerificationAnswer = t.Object({
  ok: t.Literal(true),
  token: t.String({ description: 'the listing\'s token, `vl-` + 12 of 0-9a-v; it never expires and does not change', examples: ['vl-k3j4h5g6f7d8'] }),
  verified: t.Boolean(),
  verifiedAt: t.Union([Iso, t.Null()], { description: 'when the token was last read in the MOTD' }),
  address: t.String({ description: 'the address pinged: "host" or "host:port", as listed' }),
  instructions: t.Array(t.String(), { description: 'where to put the token for the server\'s edition, and what follows, in sentences' }),
  motd: t.Optional(t.String({ description: 'POST: the MOTD read, as plain text (formatting codes removed; Bedrock: both lines)' })),
})
export type VerificationAnswer = typeof VerificationAnswer.static
