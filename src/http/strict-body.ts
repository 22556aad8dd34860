import type { TObject } from '@sinclair/typebox'
import { invalidParameter } from './errors.ts'

// Elysia silently drops body properties a schema does not declare, so an owner who sends "slug"
// in a PATCH or misspells "descripton" would believe it was saved. As a route's `transform`
// (which sees the body before that normalisation), this refuses them with a 400 naming the field.
export function refuseUnknownFields(schema: TObject, messages: Record<string, string> = {}) {
  const known = Object.keys(schema.properties)
  return ({ body }: { body: unknown }) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return
    for (const field of Object.keys(body)) {
      if (known.includes(field)) continue
      // Own properties only: a body key such as "constructor" or "__proto__" (JSON.parse makes
      // both own keys) must not pick up Object.prototype's members as its message.
      const message = Object.hasOwn(messages, field) ? messages[field] : `${field} is not a field of this request (known: ${known.join(', ')})`
      throw invalidParameter(message, field)
    }
  }
}
