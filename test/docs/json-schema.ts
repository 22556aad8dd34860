// The part of JSON Schema (as OpenAPI 3.1 writes it) that the API reference uses for answers, to
// check a live answer against its documented schema: type (one or a list), nullable, const, enum,
// properties (an answer's field the schema does not list is an error) and required, items, anyOf
// and oneOf. Formats, patterns and bounds are not checked.
export interface JsonSchema {
  type?: string | string[]
  nullable?: boolean
  const?: unknown
  enum?: unknown[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
}

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' && Number.isInteger(v) ? 'integer' : typeof v

// The ways `value` differs from `schema`, each with where ("server.rank: …"); empty when it fits.
export function schemaErrors(schema: JsonSchema, value: unknown, at = '$'): string[] {
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives) {
    if (schema.nullable && value === null) return []
    return alternatives.some((s) => schemaErrors(s, value, at).length === 0) ? [] : [`${at}: ${JSON.stringify(value)} matches none of its ${alternatives.length} schemas`]
  }
  const actual = typeOf(value)
  if (schema.type !== undefined) {
    const types = [schema.type].flat()
    if (schema.nullable) types.push('null')
    if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) return [`${at}: ${JSON.stringify(value)} is ${actual}, documented ${types.join(' or ')}`]
  }
  if ('const' in schema && schema.const !== value) return [`${at}: ${JSON.stringify(value)}, documented ${JSON.stringify(schema.const)}`]
  if (schema.enum && !schema.enum.includes(value) && !(value === null && schema.nullable)) return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`]
  const errors: string[] = []
  if (actual === 'object') {
    const object = value as Record<string, unknown>
    for (const name of schema.required ?? []) if (!(name in object)) errors.push(`${at}.${name}: missing`)
    // A field the answer has and its schema does not list is a field no reader knows of.
    if (schema.properties) for (const name of Object.keys(object)) if (!Object.hasOwn(schema.properties, name)) errors.push(`${at}.${name}: not documented`)
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (name in object) errors.push(...schemaErrors(property, object[name], `${at}.${name}`))
    }
  }
  if (actual === 'array' && schema.items) (value as unknown[]).forEach((item, i) => errors.push(...schemaErrors(schema.items!, item, `${at}[${i}]`)))
  return errors
}
