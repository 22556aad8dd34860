import { html, type Html } from './html.ts'
import { renderLayout, type PageView } from './layout.ts'
import { boundsOf, descriptionOf, renderMarkdown, schemaOutline, typeLabel, type Components, type OpenApiSchema } from './openapi-text.ts'

// The API reference page (/api/docs), rendered by the site from its own OpenAPI document: every
// endpoint grouped by tag, with its parameters, request body, answers and examples. Served like
// any other page, with the site's stylesheet: the visitor's browser asks nothing of another host.

interface MediaType { schema?: OpenApiSchema; example?: unknown; examples?: Record<string, { value?: unknown }> }
interface Parameter { name: string; in: string; required?: boolean; description?: string; schema?: OpenApiSchema }
interface Answer { description?: string; headers?: Record<string, { description?: string; schema?: OpenApiSchema }>; content?: Record<string, MediaType> }
interface SecurityScheme { type: string; in?: string; name?: string; scheme?: string }

export interface Operation {
  summary?: string
  description?: string
  tags?: string[]
  deprecated?: boolean
  security?: Record<string, string[]>[]
  parameters?: Parameter[]
  requestBody?: { required?: boolean; description?: string; content?: Record<string, MediaType> }
  responses?: Record<string, Answer>
}

export interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string }
  tags?: { name: string; description?: string }[]
  paths?: Record<string, Record<string, Operation>>
  components?: { schemas?: Components; securitySchemes?: Record<string, SecurityScheme> }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options']
const UNTAGGED = 'Other'
const anchor = (...parts: string[]) => parts.join('-').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')

interface Entry { method: string; path: string; op: Operation; id: string }

// Tags in the document's order, then the others as they first appear (the routes' order).
function groupByTag(doc: OpenApiDocument): { name: string; description?: string; entries: Entry[] }[] {
  const groups = new Map<string, Entry[]>((doc.tags ?? []).map((t) => [t.name, []]))
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const tag = op.tags?.[0] ?? UNTAGGED
      if (!groups.has(tag)) groups.set(tag, [])
      groups.get(tag)!.push({ method, path, op, id: anchor('op', method, path) })
    }
  }
  return [...groups].filter(([, entries]) => entries.length)
    .map(([name, entries]) => ({ name, description: doc.tags?.find((t) => t.name === name)?.description, entries }))
}

const methodBadge = (method: string) => html`<span class="api-method api-method-${method}">${method.toUpperCase()}</span>`

function examplesOf(media: MediaType): unknown[] {
  if (media.example !== undefined) return [media.example]
  if (media.examples) return Object.values(media.examples).map((e) => e.value).filter((v) => v !== undefined)
  return media.schema?.examples ?? []
}

const exampleText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2))

// Content types with the same schema (a body taken as JSON or as a form) are shown once.
function renderContent(content: Record<string, MediaType>, components: Components): Html {
  const shown: { types: string[]; media: MediaType; key: string }[] = []
  for (const [type, media] of Object.entries(content)) {
    const key = JSON.stringify(media)
    const same = shown.find((s) => s.key === key)
    if (same) same.types.push(type)
    else shown.push({ types: [type], media, key })
  }
  return html`${shown.map(({ types, media }) => {
    const examples = examplesOf(media)
    return html`<div class="api-content">
<p class="muted">${types.map((t, i) => html`${i ? ', ' : ''}<code>${t}</code>`)}</p>
${media.schema ? html`<pre class="api-schema">${schemaOutline(media.schema, components)}</pre>` : ''}
${examples.map((e) => html`<p class="muted">Example</p><pre class="api-example">${exampleText(e)}</pre>`)}
</div>`
  })}`
}

function renderParameters(parameters: Parameter[], components: Components): Html {
  if (!parameters.length) return html``
  return html`<h4>Parameters</h4>
<div class="api-table"><table class="table">
<thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead>
<tbody>${parameters.map((p) => {
    const schema = p.schema ?? {}
    const bounds = boundsOf(schema)
    const description = p.description ?? descriptionOf(schema)
    return html`<tr>
<td><code>${p.name}</code>${p.required ? html` <span class="pill">required</span>` : ''}</td>
<td>${p.in}</td>
<td><code>${typeLabel(schema, components)}</code>${bounds.length ? html`<br><span class="muted">${bounds.join('; ')}</span>` : ''}</td>
<td>${description ? renderMarkdown(description) : ''}${schema.examples?.length ? html`<p class="muted">Example: <code>${schema.examples.map(exampleText).join(', ')}</code></p>` : ''}</td>
</tr>`
  })}</tbody>
</table></div>`
}

function describeScheme(s: SecurityScheme | undefined, name: string): Html {
  if (s?.type === 'apiKey') return html`${s.in ?? ''} <code>${s.name ?? name}</code>`
  if (s?.type === 'http') return html`header <code>Authorization: ${s.scheme === 'bearer' ? 'Bearer' : s.scheme ?? ''} …</code>`
  return html`<code>${name}</code>`
}

function renderOperation(e: Entry, doc: OpenApiDocument): Html {
  const components = doc.components?.schemas ?? {}
  const { op } = e
  const schemes = [...new Set((op.security ?? []).flatMap((r) => Object.keys(r)))]
  return html`<article class="card api-op" id="${e.id}">
<h3>${methodBadge(e.method)} <code class="api-path">${e.path}</code></h3>
${op.summary ? html`<p><strong>${op.summary}</strong></p>` : ''}
${op.deprecated ? html`<p class="notice">Deprecated.</p>` : ''}
${op.description ? renderMarkdown(op.description) : ''}
${schemes.length ? html`<p class="muted">Authentication, one of: ${schemes.map((n, i) => html`${i ? '; ' : ''}${describeScheme(doc.components?.securitySchemes?.[n], n)}`)}.</p>` : ''}
${renderParameters(op.parameters ?? [], components)}
${op.requestBody?.content ? html`<h4>Request body${op.requestBody.required ? '' : ' (optional)'}</h4>
${op.requestBody.description ? renderMarkdown(op.requestBody.description) : ''}${renderContent(op.requestBody.content, components)}` : ''}
${op.responses ? html`<h4>Responses</h4>${Object.entries(op.responses).map(([status, a]) => html`<div class="api-response">
<div class="api-response-head"><strong class="api-status">${status}</strong><div>${a.description ? renderMarkdown(a.description) : ''}</div></div>
${a.headers ? html`<p class="muted">Headers: ${Object.entries(a.headers).map(([h, d], i) => html`${i ? '; ' : ''}<code>${h}</code>${d.description ? html` (${d.description})` : ''}`)}</p>` : ''}
${a.content ? renderContent(a.content, components) : ''}
</div>`)}` : ''}
</article>`
}

// The reference stays English in every language of the site: it is written from the OpenAPI
// document, whose descriptions, like the API's codes and messages, are English; a page half
// translated around them would read worse. The site's header and footer around it follow the
// visitor's language; the reference itself says lang="en".
export function renderApiDocsPage(view: PageView, doc: OpenApiDocument, documentPath: string): string {
  const { config } = view
  const title = doc.info?.title ?? 'API reference'
  const groups = groupByTag(doc)
  const body = html`<div lang="en"><section class="card">
<h1>${title}${doc.info?.version ? html` <span class="muted">${doc.info.version}</span>` : ''}</h1>
${doc.info?.description ? renderMarkdown(doc.info.description) : ''}
<p>The same reference as an OpenAPI document: <a href="${documentPath}"><code>${documentPath}</code></a>.</p>
<nav aria-label="Endpoints"><ul class="api-toc">${groups.map((g) => html`<li><a href="#${anchor('tag', g.name)}">${g.name}</a>
<ul>${g.entries.map((e) => html`<li><a href="#${e.id}">${methodBadge(e.method)} <code>${e.path}</code></a>${e.op.summary ? html` <span class="muted">${e.op.summary}</span>` : ''}</li>`)}</ul></li>`)}</ul></nav>
</section>
${groups.map((g) => html`<section aria-labelledby="${anchor('tag', g.name)}">
<h2 id="${anchor('tag', g.name)}">${g.name}</h2>
${g.description ? renderMarkdown(g.description) : ''}
${g.entries.map((e) => renderOperation(e, doc))}
</section>`)}</div>`
  return renderLayout(view, { title, description: `Reference of the ${config.site.name} HTTP API: every endpoint, its parameters, answers and examples.`, path: '/api/docs' }, body)
}
