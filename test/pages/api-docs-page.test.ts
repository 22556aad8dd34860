import { afterAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { chromium } from 'playwright-core'
import { renderApiDocsPage, type OpenApiDocument } from '../../src/pages/api-docs-page.ts'
import { pageView } from '../../src/pages/layout.ts'
import { call, cleanupTemp, testApp, testConfig, testRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

async function fetchDocs() {
  const rt = testRuntime({ site: { base_url: 'https://list.example' } })
  const app = await testApp(rt)
  const page = await call(app, 'GET', '/api/docs')
  const doc = await (await call(app, 'GET', '/api/docs/json')).json() as OpenApiDocument
  return { rt, app, page, html: await page.text(), doc }
}

// The HTML of one endpoint's section.
function section(html: string, id: string): string {
  const start = html.indexOf(`<article class="card api-op" id="${id}">`)
  expect(start).toBeGreaterThan(-1)
  return html.slice(start, html.indexOf('</article>', start))
}

describe('the API reference page (/api/docs)', () => {
  test('lists the verification endpoints with their parameters, answers and examples', async () => {
    const { page, html, doc } = await fetchDocs()
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    // Grouped by tag: Verification first (the document's own tag list), each endpoint in the contents.
    expect(html.indexOf('<h2 id="tag-verification">Verification</h2>')).toBeGreaterThan(-1)
    expect(html.indexOf('id="tag-verification"')).toBeLessThan(html.indexOf('id="tag-system"'))

    const endpoints = [
      ['get', '/api/v1/votes/check', 'op-get-api-v1-votes-check'],
      ['post', '/api/v1/votes/claim', 'op-post-api-v1-votes-claim'],
      ['get', '/api/v1/votes', 'op-get-api-v1-votes'],
      ['get', '/api/v1/server', 'op-get-api-v1-server'],
    ] as const
    for (const [method, path, id] of endpoints) {
      const op = doc.paths![path][method]
      expect(html).toContain(`<a href="#${id}">`)
      const s = section(html, id)
      expect(s).toContain(`<span class="api-method api-method-${method}">${method.toUpperCase()}</span> <code class="api-path">${path}</code>`)
      expect(s).toContain(`<p><strong>${op.summary!.replaceAll("'", '&#39;')}</strong></p>`)
      expect(s).toContain('curl') // from the description
      // Every parameter of the document has its row, with its place and type.
      for (const p of op.parameters!) expect(s).toContain(`<td><code>${p.name}</code>${p.required ? ' <span class="pill">required</span>' : ''}</td>\n<td>${p.in}</td>`)
      for (const status of ['200', '400', '401', '429']) expect(s).toContain(`<strong class="api-status">${status}</strong>`)
      expect(s).toContain('<code>RateLimit-Remaining</code>')
      expect(s).toContain('<pre class="api-example">{')
      expect(s).toContain('Authentication, one of: header <code>X-Api-Key</code>')
    }

    const check = section(html, 'op-get-api-v1-votes-check')
    // Types and bounds of the parameters, the answer's fields with their descriptions.
    expect(check).toContain('<td><code>pseudo</code></td>\n<td>query</td>\n<td><code>string</code><br><span class="muted">1–64 characters</span></td>')
    expect(check).toContain('<td><code>&quot;json&quot; | &quot;text&quot;</code><br><span class="muted">default &quot;json&quot;</span></td>')
    expect(check).toContain('  hasVoted: boolean  // A vote matches inside the window.\n')
    expect(check).toContain('  votedAt: string (date-time) | null  // Time of the most recent matching vote inside the window.\n')
    // format=text is its own content type, with its example.
    expect(check).toContain('<code>text/plain</code>')
    expect(check).toContain('<pre class="api-example">1</pre>')
    expect(section(html, 'op-post-api-v1-votes-claim')).toContain('<td><code>pseudo</code> <span class="pill">required</span></td>')
    // A numeric field reads as a number, not as the string twin Elysia adds for query strings.
    expect(section(html, 'op-get-api-v1-votes')).toContain('<td><code>limit</code></td>')
  })

  test('a request body is shown once for the content types that share it', async () => {
    const { html } = await fetchDocs()
    const create = section(html, 'op-post-api-v1-me-servers')
    expect(create).toContain('<h4>Request body</h4>')
    expect(create).toContain('<code>application/json</code>, <code>application/x-www-form-urlencoded</code>')
    expect(create.split('<pre class="api-schema">{\n  name: string').length).toBe(2)
    expect(create).toContain('  port?: integer  // ')
    expect(create).toContain('1–65535')
    expect(create).toContain('  edition?: &quot;java&quot; | &quot;bedrock&quot;')
    expect(create).toContain('  modes?: string[]  // at most 8 items; distinct items')
  })

  test('the page asks nothing of another host: every URL it references is the site\'s own', async () => {
    const { html, rt } = await fetchDocs()
    const urls = [...html.matchAll(/\b(?:href|src|action|content)="([^"]*)"/g)].map((m) => m[1])
      .filter((u) => /^(?:[a-z]+:|\/\/|\/|#)/i.test(u))
    expect(urls.length).toBeGreaterThan(40)
    const base = rt.config.site.base_url
    for (const u of urls) {
      const sameOrigin = (u.startsWith("/") && !u.startsWith("//")) || u.startsWith("#") || u.startsWith(`${base}/`)
      if (!sameOrigin) throw new Error(`the page references ${u}`)
    }
    expect(html).not.toMatch(/url\(|@import|<script|<iframe|<img/i)
  })

  test('in a browser, loading it makes no request to another origin', async () => {
    const rt = testRuntime()
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
    try {
      const page = await browser.newPage()
      const origin = `http://127.0.0.1:${app.server!.port}`
      const requested: string[] = []
      page.on('request', (r) => { requested.push(r.url()) })
      await page.goto(`${origin}/api/docs`, { waitUntil: 'networkidle' })
      expect(await page.textContent('#op-get-api-v1-votes-check h3')).toBe('GET /api/v1/votes/check')
      expect(requested).toContain(`${origin}/assets/site.css`)
      expect(requested.filter((u) => !u.startsWith(`${origin}/`))).toEqual([])
    } finally {
      await browser.close()
      await app.stop()
    }
  }, 30_000)

  test('hostile text anywhere in the document is escaped: it never becomes markup', () => {
    const config = testConfig()
    const marker = '<x-evil onload="alert(1)">'
    const evilDoc = (t: string): OpenApiDocument => ({
      info: { title: t, version: t, description: `para ${t}\n\n- \`${t}\` **${t}**\n- ${t}` },
      tags: [{ name: t, description: t }],
      paths: {
        [`/api/${t}`]: {
          get: {
            summary: t, description: `\`</code>${t}\` ${t}`, tags: [t],
            security: [{ [t]: [] }],
            parameters: [{ name: t, in: t, required: true, description: t, schema: { type: 'string', pattern: t, enum: [t], default: t, examples: [t] } }],
            requestBody: { description: t, content: { [t]: { schema: { type: 'object', required: [t], properties: { [t]: { type: 'string', description: t, format: t } } }, example: { [t]: `</pre>${t}` } } } },
            responses: { [t]: { description: t, headers: { [t]: { description: t } }, content: { [t]: { schema: { $ref: `#/components/schemas/${t}` }, examples: { a: { value: t } } } } } },
          },
        },
      },
      components: { schemas: { [t]: { type: 'object', properties: { [t]: { type: 'array', items: { enum: [t] } } } } }, securitySchemes: { [t]: { type: 'apiKey', in: t, name: t } } },
    })
    const view = pageView(config, new Request('http://localhost/api/docs'))
    const page = renderApiDocsPage(view, evilDoc(marker), '/api/docs/json')
    expect(page).not.toContain('<x-evil')
    expect(page).toContain('&lt;x-evil onload=&quot;alert(1)&quot;&gt;')
    // Any text at all: whatever the document says, the page's elements and attributes are the
    // page's own (the descriptions' markdown may add paragraphs, lists, code and strong).
    const vocabulary = (html: string) => {
      const tags = new Set<string>()
      const attributes = new Set<string>()
      for (const m of html.matchAll(/<([a-z][a-z0-9-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*>/g)) {
        tags.add(m[1])
        for (const a of m[2].matchAll(/([^\s=]+)(?:="[^"]*")?/g)) attributes.add(a[1])
      }
      // Every "<" that opens something is one of those elements (or the doctype / a closing tag).
      const opened = html.match(/<[^/!]/g)!.length
      return { tags, attributes, opened, parsed: [...html.matchAll(/<([a-z][a-z0-9-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*>/g)].length }
    }
    const plain = vocabulary(renderApiDocsPage(view, evilDoc('plain'), '/api/docs/json'))
    const allowedTags = new Set([...plain.tags, 'p', 'ul', 'li', 'code', 'strong', 'br'])
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 40 }), (t) => {
      const v = vocabulary(renderApiDocsPage(view, evilDoc(`a${t}`), '/api/docs/json'))
      expect(v.opened).toBe(v.parsed)
      for (const tag of v.tags) expect(allowedTags.has(tag)).toBe(true)
      for (const a of v.attributes) expect(plain.attributes.has(a)).toBe(true)
    }), { numRuns: 200 })
  })
})
