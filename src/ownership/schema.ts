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

// The 409 of POST …/verification: the token was not read in the MOTD (or the server did not
// answer), written by the error handler from ApiError's extra fields.
export const VerificationRefused = t.Object({
  ok: t.Literal(false),
  error: t.Object({
    code: t.Literal('CONFLICT'),
    message: t.String({ description: 'what was read (the MOTD quoted) or why nothing was, and what to do' }),
    // UnionEnum, not a union of literals: the OpenAPI plugin keeps its description. An answer's
    // field has no default.
    reason: t.UnionEnum(['MOTD_UNREADABLE', 'TOKEN_NOT_IN_MOTD', 'ADDRESS_CHANGED'], {
      default: undefined,
      description: 'MOTD_UNREADABLE: the server did not answer; TOKEN_NOT_IN_MOTD: the MOTD read lacks the token; ADDRESS_CHANGED: the address changed while it was checked',
    }),
  }),
  motd: t.Union([t.String(), t.Null()], { description: 'the MOTD read, as plain text; null when the ping failed' }),
}, {
  examples: [{ ok: false, error: { code: 'CONFLICT', message: 'the MOTD of play.example.com does not contain vl-k3j4h5g6f7d8: it reads "A Minecraft Server". Put the token in the MOTD, restart or reload the server, then verify again.', reason: 'TOKEN_NOT_IN_MOTD' }, motd: 'A Minecraft Server' }],
})
