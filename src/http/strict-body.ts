import type { TObject } from '@sinclair/typebox'
import { invalidParameter } from './errors.ts'

const NOT_AN_OBJECT = 'the request body must be a JSON object, sent with Content-Type: application/json'

// Elysia silently drops body properties a schema does not declare, so an owner who sends "slug"
// in a PATCH or misspells "descripton" would believe it was saved. As a route's `transform`
// (which sees the body before that normalisation), this refuses them with a 400 naming the field.
export function refuseUnknownFields(schema: TObject, messages: Record<string, string> = {}) {
  const known = Object.keys(schema.properties)
  return ({ body }: { body: unknown }) => {
    if (body === undefined) return
    // Elysia would clean an array, or the text of a body sent as text/plain, into an empty
    // object: a PATCH of `[]` answered 200 having changed nothing, a key was made from `[]`,
    // and valid JSON sent as text/plain got "name is required".
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidParameter(NOT_AN_OBJECT)
    for (const field of Object.keys(body)) {
      if (known.includes(field)) continue
      // Own properties only: a body key such as "constructor" or "__proto__" (JSON.parse makes
      // both own keys) must not pick up Object.prototype's members as its message.
      const message = Object.hasOwn(messages, field) ? messages[field] : `${field} is not a field of this request (known: ${known.join(', ')})`
      throw invalidParameter(message, field)
    }
  }
}
