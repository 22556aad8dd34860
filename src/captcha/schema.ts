import { t } from 'elysia'

// An ALTCHA v2 challenge, as the widget reads it.
export const ChallengeSchema = t.Object({
  parameters: t.Object({
    algorithm: t.String(), nonce: t.String(), salt: t.String(), cost: t.Number(), keyLength: t.Number(),
    keyPrefix: t.String(), keySignature: t.Optional(t.String()), expiresAt: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  signature: t.Optional(t.String()),
})
