import { Type, type IntegerOptions, type TObject, type TProperties } from '@sinclair/typebox'
import { t } from 'elysia'
import { invalidParameter } from './errors.ts'

// Schema pieces every API shares: times and integer query parameters.

// Every time in the API is UTC, ISO 8601 with milliseconds (Date#toISOString); stored as ms.
export const Iso = t.String({ description: 'UTC time, ISO 8601 with milliseconds', examples: ['2026-11-22T10:15:30.123Z'] })
export const iso = (ms: number) => new Date(ms).toISOString()
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms))

// An integer of an answer: TypeBox's own. Elysia's t.Integer also takes numeric text (what a form
// or a query sends) and compiles a checker for that at each use, about 0.1 ms apiece of every
// start for the forty-odd integers of the answers; an answer's integers are numbers. (Request
// bodies keep t.Integer.)
export const Int = (options?: IntegerOptions) => Type.Integer(options)

// One object of the properties of objects that share none: what t.Composite makes of them,
// without TypeBox's evaluation of the intersection, which took 2.5 ms at its first call in the
// binary and 0.35 ms at each after (four answers are built this way at every start).
export function merged<A extends TProperties, B extends TProperties>(a: TObject<A>, b: TObject<B>): TObject<A & B> {
  const shared = Object.keys(a.properties).filter((k) => k in b.properties)
  if (shared.length) throw new Error(`merged objects share ${shared.join(', ')}`)
  return Type.Object({ ...a.properties, ...b.properties }) as TObject<A & B>
}

// Integer query parameters are validated as digits-only text ("1.5", "abc", "0x10", "5e1" are
// refused) and converted with Number() by the route; the range is checked by the service with
// checkInteger(), under the same message. A t.Transform would do both in the schema, but Elysia
// decodes it on every request (twice, in 1.4): a measurable share of the check endpoint's time.
export const integerMessage = (name: string, min: number, max: number) => `${name} must be an integer from ${min} to ${max}`

export const queryInteger = (name: string, min: number, max: number, description: string) =>
  t.String({ pattern: '^[0-9]{1,9}$', error: integerMessage(name, min, max), description })

export const toInteger = (text: string | undefined) => (text === undefined ? undefined : Number(text))

export function checkInteger(value: number | undefined, name: string, min: number, max: number): number | undefined {
  if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max)) throw invalidParameter(integerMessage(name, min, max), name)
  return value
}

// The contract's error body, as the global error handler writes it (src/http/error-handler.ts).
export const ErrorBody = t.Object({
  ok: t.Literal(false),
  error: t.Object({
    code: t.String(),
    message: t.String(),
    field: t.Optional(t.String({ description: 'The one parameter at fault, where there is one (400 INVALID_PARAMETER, 409 CONFLICT).' })),
    reason: t.Optional(t.String({ description: 'Which refusal, where one code covers several and no field is at fault (403 FORBIDDEN, 409 CONFLICT): see the errors in the introduction.' })),
  }),
}, { examples: [{ ok: false, error: { code: 'INVALID_PARAMETER', message: 'window must be an integer from 1 to 1440', field: 'window' } }] })

// One documented error answer of a route, for its `response` map: the OpenAPI document lists it
// with this description. Thrown errors leave through the error handler, not through this schema.
export const errorAnswer = (description: string) => t.Object(ErrorBody.properties, { description })

// The same, for a route whose answers are written as OpenAPI in its `detail.responses` (an image
// route, which no `t` schema describes): the error body as JSON.
export const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ErrorBody } } })
