import type { TObject } from '@sinclair/typebox'
import { invalidParameter } from './errors.ts'

export const NOT_AN_OBJECT = 'the request body must be a JSON object, sent with Content-Type: application/json'
const UNPARSABLE = 'the request body could not be parsed'
// The types an object body is read from (JSON, and the two form encodings the reference lists).
const READABLE = new Set(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'])
const mediaType = (request: Request) => (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
// Content-Length: 0 is no body, as some clients send it with a bodiless POST.
function sentBody(request: Request): boolean {
  const length = request.headers.get('content-length')
  return length === null ? request.body !== null : Number(length) > 0
}

// Elysia silently drops body properties a schema does not declare, so an owner who sends "slug"
// in a PATCH or misspells "descripton" would believe it was saved. As a route's `transform`
// (which sees the body before that normalisation), this refuses them with a 400 naming the field.
// `nullable`: a JSON null is the defaults, as no body is (the test vote).
export function refuseUnknownFields(schema: TObject, messages: Record<string, string> = {}, { nullable = false } = {}) {
  const known = Object.keys(schema.properties)
  return ({ body, request }: { body: unknown; request: Request }) => {
    if (sentBody(request)) {
      // Elysia reads a body of another type as no body at all (application/octet-stream, or a
      // vendor +json type) or as a form (any application/x…, application/xml too): a PATCH of
      // JSON sent so answered 200 having changed nothing.
      if (!READABLE.has(mediaType(request))) throw invalidParameter(NOT_AN_OBJECT)
      // Where the body is optional, Elysia drops JSON it cannot parse: a key was made, a test
      // vote sent, from a body cut short.
      if (body === undefined) throw invalidParameter(UNPARSABLE)
    }
    if (body === undefined || (nullable && body === null)) return
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
