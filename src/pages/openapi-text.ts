import { html, type Html } from './html.ts'

// Readable renderings of the pieces of an OpenAPI document, for the API reference page: a type
// label with its bounds, a schema as a compact TypeScript-like outline, and the descriptions'
// little markdown. Everything comes out of html`` or goes into a <pre> as text, so no text of
// the document can become markup.

export interface OpenApiSchema {
  $ref?: string
  type?: string | string[]
  format?: string
  description?: string
  const?: unknown
  enum?: unknown[]
  default?: unknown
  examples?: unknown[]
  nullable?: boolean
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  minItems?: number
  maxItems?: number
  uniqueItems?: boolean
  items?: OpenApiSchema
  properties?: Record<string, OpenApiSchema>
  required?: string[]
  additionalProperties?: boolean | OpenApiSchema
  anyOf?: OpenApiSchema[]
  oneOf?: OpenApiSchema[]
  allOf?: OpenApiSchema[]
}

export type Components = Record<string, OpenApiSchema>

const json = (v: unknown) => JSON.stringify(v)
const NUMERIC = new Set(['integer', 'number'])

// The alternatives of a union, without the string twin that Elysia adds to every numeric field
// (`{type: "string", format: "integer"}`, the same value as read from a query string).
function branches(s: OpenApiSchema): OpenApiSchema[] | null {
  const list = s.anyOf ?? s.oneOf
  if (!list) return null
  const numeric = list.some((b) => typeof b.type === 'string' && NUMERIC.has(b.type))
  return list.filter((b) => !(numeric && b.type === 'string' && NUMERIC.has(b.format ?? '')))
}

function resolve(s: OpenApiSchema, components: Components): OpenApiSchema {
  const name = s.$ref?.split('/').pop()
  return (name && components[name]) || s
}

// "integer", "string (date-time)", "\"java\" | \"bedrock\"", "string[] | null", …
export function typeLabel(schema: OpenApiSchema, components: Components = {}): string {
  if (schema.$ref) return schema.$ref.split('/').pop() ?? 'object'
  if (schema.const !== undefined) return json(schema.const)
  if (schema.enum) return schema.enum.map(json).join(' | ')
  const alternatives = branches(schema)
  if (alternatives) {
    const labels = [...new Set(alternatives.map((b) => typeLabel(b, components)))]
    return labels.length === 1 ? labels[0] : labels.join(' | ')
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type
  if (type === 'array') {
    const item = schema.items ? typeLabel(schema.items, components) : 'unknown'
    return item.includes(' | ') ? `(${item})[]` : `${item}[]`
  }
  if (!type) return schema.properties ? 'object' : 'any'
  return schema.format && !NUMERIC.has(schema.format) ? `${type} (${schema.format})` : type
}

// The description, which Elysia sometimes leaves on the first alternative only.
export const descriptionOf = (s: OpenApiSchema): string | undefined =>
  s.description ?? (branches(s) ?? []).find((b) => b.description)?.description

// "1–1440", "at most 64 characters", "pattern ^[a-z]+$", "default 120", … (empty: no bound).
export function boundsOf(schema: OpenApiSchema): string[] {
  const s = { ...(branches(schema) ?? []).find((b) => b.type !== 'null'), ...schema }
  const out: string[] = []
  const range = (lo: number | undefined, hi: number | undefined, unit = '') => {
    if (lo !== undefined && hi !== undefined) out.push(lo === hi ? `exactly ${lo}${unit}` : `${lo}–${hi}${unit}`)
    else if (lo !== undefined) out.push(`at least ${lo}${unit}`)
    else if (hi !== undefined) out.push(`at most ${hi}${unit}`)
  }
  range(s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : undefined), s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : undefined))
  range(s.minLength, s.maxLength, ' characters')
  range(s.minItems, s.maxItems, ' items')
  if (s.uniqueItems) out.push('distinct items')
  if (s.pattern) out.push(`pattern ${s.pattern}`)
  if (s.default !== undefined && !(s.default === 0 && s.type === 'string')) out.push(`default ${json(s.default)}`)
  return out
}

// A compact outline of a schema, one property a line, its description and bounds as a comment.
export function schemaOutline(schema: OpenApiSchema, components: Components = {}): string {
  return outline(schema, components, '', new Set()).join('\n')
}

function outline(schema: OpenApiSchema, components: Components, indent: string, seen: Set<OpenApiSchema>): string[] {
  const s = resolve(schema, components)
  const object = (branches(s) ?? [s]).find((b) => b.properties || (b.type === 'array' && b.items))
  if (!object || seen.has(s)) return [typeLabel(schema, components)]
  const inner = new Set(seen).add(s)
  const nullable = (branches(s) ?? []).some((b) => b.type === 'null') ? ' | null' : ''
  if (!object.properties) {
    const item = outline(object.items!, components, indent, inner)
    if (item.length === 1) return [`${item[0].includes(' | ') ? `(${item[0]})` : item[0]}[]${nullable}`]
    return [`Array<${item[0]}`, ...item.slice(1, -1), `${item[item.length - 1]}>${nullable}`]
  }
  const required = new Set(object.required ?? [])
  const lines = ['{']
  for (const [name, prop] of Object.entries(object.properties)) {
    const value = outline(prop, components, `${indent}  `, inner)
    const notes = [descriptionOf(prop), ...boundsOf(prop)].filter(Boolean).join('; ').replace(/\s+/g, ' ')
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : json(name)
    lines.push(`${indent}  ${key}${required.has(name) ? '' : '?'}: ${value[0]}${notes ? `  // ${notes}` : ''}`, ...value.slice(1))
  }
  lines.push(`${indent}}${nullable}`)
  return lines
}

// The descriptions' markdown, minimally: paragraphs, "- " lists, `code` and **strong**; any
// other character is text.
export function renderMarkdown(text: string): Html {
  return html`${text.trim().split(/\n\s*\n/).map((block) => {
    const lines = block.split('\n')
    if (lines.every((l) => /^\s*[-*] /.test(l))) return html`<ul>${lines.map((l) => html`<li>${inline(l.replace(/^\s*[-*] /, ''))}</li>`)}</ul>`
    return html`<p>${lines.map((l, i) => html`${i ? html`<br>` : ''}${inline(l)}`)}</p>`
  })}`
}

function inline(text: string): Html {
  return html`${text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).map((part) => {
    if (part.length > 2 && part.startsWith('`') && part.endsWith('`')) return html`<code>${part.slice(1, -1)}</code>`
    if (part.length > 4 && part.startsWith('**') && part.endsWith('**')) return html`<strong>${part.slice(2, -2)}</strong>`
    return part
  })}`
}
