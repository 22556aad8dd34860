import { OptionalKind } from '@sinclair/typebox'
import type { OpenApiDocument } from './api-docs-page.ts'

// What the OpenAPI plugin gets wrong in the document it builds from the routes, set right once
// per document built (src/pages/api-docs.ts).

export interface DocumentedRoute { method: string; path: string; hooks?: { body?: object; response?: unknown; detail?: { responses?: Record<string, Answer> } } }
interface Answer { description?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }
type Operation = { requestBody?: { required?: boolean }; responses?: Record<string, Answer> }
type Paths = Record<string, Record<string, Operation>>

export function repairDocument(doc: OpenApiDocument, routes: readonly DocumentedRoute[]): void {
  const paths = (doc as { paths?: Paths }).paths ?? {}
  enumTypes(doc)
  optionalBodies(paths, routes)
  moreAnswers(paths, routes)
}

const operationOf = (paths: Paths, route: DocumentedRoute) => paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()]

// The plugin writes every union of literals as `{type: "string", enum: […]}`, whatever the
// literals are: GET /api/v1/vote-token's `family` (4 or 6) was documented as a string. The type is
// set again from the values themselves, throughout the document, once per document built.
function enumTypes(node: unknown): void {
  if (typeof node !== 'object' || node === null) return
  const schema = node as { type?: unknown; enum?: unknown[] }
  if (schema.type === 'string' && Array.isArray(schema.enum) && !schema.enum.every((v) => typeof v === 'string')) {
    const types = [...new Set(schema.enum.map((v) => (v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v)))]
    schema.type = types.length === 1 ? types[0] : types
  }
  for (const value of Object.values(node)) enumTypes(value)
}

// The plugin marks every request body required; a route whose body schema is optional (a key's
// name, a test vote's pseudo) takes a request without one.
function optionalBodies(paths: Paths, routes: readonly DocumentedRoute[]): void {
  for (const route of routes) {
    const body = route.hooks?.body
    if (!body || !(OptionalKind in body)) continue
    const operation = operationOf(paths, route)
    if (operation?.requestBody) operation.requestBody.required = false
  }
}

// The plugin builds a route's answers from its `response` schemas alone, dropping the answers its
// `detail.responses` writes: there a route states what no schema can (the history's CSV form).
// They are added to the answers of the same status.
function moreAnswers(paths: Paths, routes: readonly DocumentedRoute[]): void {
  for (const route of routes) {
    const more = route.hooks?.detail?.responses
    if (!more || !route.hooks?.response) continue
    const operation = operationOf(paths, route)
    if (!operation) continue
    const answers = operation.responses ??= {}
    for (const [status, answer] of Object.entries(more)) {
      const known = answers[status]
      answers[status] = known
        ? { ...known, description: answer.description ?? known.description, headers: { ...known.headers, ...answer.headers }, content: { ...known.content, ...answer.content } }
        : answer
    }
  }
}
