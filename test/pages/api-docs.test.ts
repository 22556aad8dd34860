import { afterAll, expect, test } from 'bun:test'
import { call, cleanupTemp, testApp, testRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

interface Operation {
  summary: string
  description: string
  tags: string[]
  security: Record<string, string[]>[]
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[]
  responses: Record<string, { headers?: Record<string, unknown>; content: Record<string, { schema: { examples?: unknown[]; properties?: Record<string, unknown> } }> }>
}

test('the OpenAPI document lists the four verification endpoints with their parameters, errors and examples', async () => {
  const app = await testApp(testRuntime())
  const r = await call(app, 'GET', '/api/docs/json')
  expect(r.status).toBe(200)
  const doc = await r.json() as { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } }
  expect(doc.openapi).toStartWith('3.')
  const op = (path: string, method: string) => {
    const o = doc.paths[path]?.[method]
    expect(o).toBeDefined()
    return o!
  }
  const params = (o: Operation) => Object.fromEntries(o.parameters.map((p) => [p.name, { in: p.in, required: p.required }]))
  const optional = { in: 'query', required: false }

  const check = op('/api/v1/votes/check', 'get')
  expect(params(check)).toEqual({ pseudo: optional, ip: optional, window: optional, duration: optional, format: optional, key: optional })
  const claim = op('/api/v1/votes/claim', 'post')
  expect(params(claim)).toEqual({ pseudo: { in: 'query', required: true }, window: optional, duration: optional, format: optional, key: optional })
  expect(params(op('/api/v1/votes', 'get'))).toEqual({ since: optional, limit: optional, key: optional })
  expect(params(op('/api/v1/server', 'get'))).toEqual({ month: optional, key: optional })

  for (const o of [check, claim, op('/api/v1/votes', 'get'), op('/api/v1/server', 'get')]) {
    expect(o.summary.length).toBeGreaterThan(0)
    expect(o.description).toContain('curl')
    expect(o.description).toContain('RateLimit-Remaining')
    expect(o.security).toEqual([{ ApiKeyHeader: [] }, { BearerKey: [] }, { ApiKeyQuery: [] }])
    expect(Object.keys(o.responses).sort()).toEqual(['200', '400', '401', '429'])
    expect(o.responses['200'].content['application/json'].schema.examples?.length).toBeGreaterThan(0)
    expect(Object.keys(o.responses['429'].headers!)).toContain('Retry-After')
  }
  // The contract's decisions are in the descriptions.
  expect(check.description).toContain('both')
  expect(check.parameters.find((p) => p.name === 'window')!.schema.description).toContain('1 to 1440')
  expect(claim.description).toContain('OLDEST')
  // format=text is documented as its own content type where it applies.
  expect(Object.keys(check.responses['200'].content)).toEqual(['application/json', 'text/plain'])
  expect(Object.keys(claim.responses['200'].content)).toEqual(['application/json', 'text/plain'])
  expect(Object.keys(check.responses['200'].content['application/json'].schema.properties!)).toEqual(['ok', 'hasVoted', 'pseudo', 'votedAt', 'nextVoteAt', 'claimed', 'window'])
  expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['ApiKeyHeader', 'ApiKeyQuery', 'BearerKey', 'SessionCookie'])
  // Pages and assets are not API; the vote form's POST, whose JSON answer is the voting API, is.
  expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1/'))).toEqual(['/serveur/{slug}/voter'])
  expect(Object.keys(doc.paths['/serveur/{slug}/voter'])).toEqual(['post'])

  const ui = await call(app, 'GET', '/api/docs')
  expect(ui.status).toBe(200)
  expect(ui.headers.get('content-type')).toStartWith('text/html')
  // The page, rendered by the site from this document (test/pages/api-docs-page.test.ts), links it
  // by its absolute path.
  expect(await ui.text()).toContain('<a href="/api/docs/json">')
})

test('the examples in the document are valid answers of their own schemas', async () => {
  const { Value } = await import('@sinclair/typebox/value')
  const s = await import('../../src/verification/schema.ts')
  const ownership = await import('../../src/ownership/schema.ts')
  const { ErrorBody } = await import('../../src/http/schema.ts')
  for (const schema of [s.CheckResult, s.ClaimResult, s.VoteList, s.ServerStatistics, ErrorBody, ownership.VerificationRefused]) {
    const examples = (schema as { examples?: unknown[] }).examples ?? []
    expect(examples.length).toBeGreaterThan(0)
    for (const e of examples) expect(Value.Check(schema, e)).toBe(true)
  }
})

test('the document covers proven ownership, the Discord channel and the public record\'s verified mark', async () => {
  const app = await testApp(testRuntime())
  const doc = await (await call(app, 'GET', '/api/docs/json')).json() as { paths: Record<string, Record<string, Operation>> }
  const verification = doc.paths['/api/v1/me/servers/{slug}/verification']
  expect(Object.keys(verification).sort()).toEqual(['get', 'post'])
  expect(Object.keys(verification.post.responses).sort()).toEqual(['200', '401', '403', '404', '409', '429'])
  expect(Object.keys(verification.post.responses['409'].content['application/json'].schema.properties!).sort()).toEqual(['error', 'motd', 'ok'])
  expect(verification.post.description).toContain('limits.verifications_per_minute')
  expect(verification.get.description).toContain('MOTD')
  expect(Object.keys(verification.get.responses['200'].content['application/json'].schema.properties!))
    .toEqual(['ok', 'token', 'verified', 'verifiedAt', 'address', 'instructions', 'motd'])

  const discord = doc.paths['/api/v1/me/servers/{slug}/discord']
  expect(Object.keys(discord).sort()).toEqual(['delete', 'get', 'put'])
  expect(discord.put.description).toContain('discord.com')
  expect(doc.paths['/api/v1/me/servers/{slug}/deliveries'].get.description).toContain('`discord`')

  const record = doc.paths['/api/v1/servers/{slug}'].get.responses['200'].content['application/json'].schema.properties as { server: { properties: Record<string, { type?: string }> } }
  expect(record.server.properties.verified.type).toBe('boolean')
})

test('every administrator route and POST /api/v1/auth/reset are in the document with their bodies, answers and errors', async () => {
  type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; format?: string }
  type Op = { tags: string[]; summary: string; description: string; parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { description: string; content: Record<string, { schema: Schema }> }> }
  const app = await testApp(testRuntime())
  const doc = await (await call(app, 'GET', '/api/docs/json')).json() as { tags: { name: string; description: string }[]; paths: Record<string, Record<string, Op>> }
  const op = (method: string, path: string) => doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()]
  const errorShape = (s: Schema) => ({ type: s.type, keys: Object.keys(s.properties ?? {}), error: Object.keys(s.properties?.error?.properties ?? {}) })
  const ERROR = { type: 'object', keys: ['ok', 'error'], error: ['code', 'message', 'field', 'reason'] }
  expect(doc.tags.find((t) => t.name === 'Admin')?.description).toContain('403 FORBIDDEN')

  // Taken from the mounted routes: a new administrator route cannot be left out.
  const admin = app.routes.filter((r) => r.path.startsWith('/api/v1/admin')).map((r) => [r.method, r.path] as const)
  expect(admin.length).toBe(10)
  for (const [method, path] of admin) {
    const o = op(method, path)
    const where = `${method} ${path}`
    expect({ where, documented: o !== undefined }).toEqual({ where, documented: true })
    expect({ where, tags: o!.tags, summary: o!.summary.length > 0, description: o!.description.length > 40 }).toEqual({ where, tags: ['Admin'], summary: true, description: true })
    const ok = o!.responses['200']
    const body = ok.content['application/json']?.schema ?? ok.content['application/vnd.sqlite3']?.schema
    expect({ where, answer: body?.properties ? Object.keys(body.properties)[0] : body?.format }).toEqual({ where, answer: path === '/api/v1/admin/backup' ? 'binary' : 'ok' })
    for (const status of ['401', '403']) {
      expect({ where, status, error: errorShape(o!.responses[status]?.content['application/json'].schema ?? {}) }).toEqual({ where, status, error: ERROR })
    }
    if (path.includes(':id')) expect({ where, params: o!.parameters?.map((p) => `${p.in} ${p.name}`) }).toEqual({ where, params: ['path id'] })
  }
  const patch = op('PATCH', '/api/v1/admin/users/:id')!
  const patchBody = patch.requestBody!.content['application/json'].schema
  expect({ properties: patchBody.properties, required: patchBody.required ?? [] }).toEqual({ properties: { disabled: expect.objectContaining({ type: 'boolean' }), admin: expect.objectContaining({ type: 'boolean' }) }, required: [] })
  expect(Object.keys(patch.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409'])
  expect(Object.keys(op('DELETE', '/api/v1/admin/users/:id')!.responses).sort()).toEqual(['200', '401', '403', '404', '409'])
  expect(Object.keys(op('POST', '/api/v1/admin/users/:id/reset-link')!.responses['200'].content['application/json'].schema.properties!)).toEqual(['ok', 'url', 'expiresAt'])
  expect(op('GET', '/api/v1/admin/audit')!.parameters?.map((p) => `${p.in} ${p.name}`)).toEqual(['query limit', 'query before'])

  const reset = op('POST', '/api/v1/auth/reset')!
  const resetBody = reset.requestBody!.content['application/json'].schema
  expect({ properties: Object.keys(resetBody.properties!), required: resetBody.required }).toEqual({ properties: ['token', 'password'], required: ['token', 'password'] })
  expect(Object.keys(reset.responses['200'].content['application/json'].schema.properties!)).toEqual(['ok', 'user'])
  for (const status of ['400', '403', '429']) expect({ status, error: errorShape(reset.responses[status].content['application/json'].schema) }).toEqual({ status, error: ERROR })
})

test('the document describes the listing media: the public record\'s iconUrl, bannerUrl and motd, the image routes and the banner upload', async () => {
  const app = await testApp(testRuntime())
  const doc = await (await call(app, 'GET', '/api/docs/json')).json() as { paths: Record<string, Record<string, Operation & { requestBody?: { content: Record<string, unknown> } }>> }
  const record = doc.paths['/api/v1/servers/{slug}'].get.responses['200'].content['application/json'].schema.properties!.server as { required: string[]; properties: Record<string, { type: string | string[] }> }
  expect(record.required).toEqual(expect.arrayContaining(['iconUrl', 'bannerUrl', 'motd']))
  expect([record.properties.iconUrl.type, record.properties.bannerUrl.type, record.properties.motd.type]).toEqual(['string', ['string', 'null'], ['string', 'null']])
  // Paths with a dot (icon.png, badge.svg) are listed like the others.
  const icon = doc.paths['/api/v1/servers/{slug}/icon.png'].get
  expect(Object.keys(icon.responses)).toEqual(['200', '304', '404'])
  expect(Object.keys(icon.responses['200'].content)).toEqual(['image/png'])
  expect(Object.keys(icon.responses['200'].headers!)).toEqual(['ETag', 'Cache-Control'])
  expect(doc.paths['/api/v1/servers/{slug}/badge.svg'].get.summary).toBe('"Vote for us" badge')
  const banner = doc.paths['/api/v1/servers/{slug}/banner'].get
  expect(Object.keys(banner.responses['200'].content)).toEqual(['image/png', 'image/gif', 'image/jpeg', 'image/webp'])
  const upload = doc.paths['/api/v1/me/servers/{slug}/banner']
  expect(Object.keys(upload.put.requestBody!.content)).toEqual(['image/png', 'image/gif', 'image/jpeg', 'image/webp', 'application/octet-stream'])
  expect(upload.put.description).toContain('468×60')
  expect(upload.delete.summary).toBe('Remove the banner of one of my servers')
})

test('a body the route takes as optional is documented as not required (a key\'s name, a test vote\'s pseudo); the others are required', async () => {
  const app = await testApp(testRuntime())
  const doc = await (await call(app, 'GET', '/api/docs/json')).json() as { paths: Record<string, Record<string, { requestBody?: { required: boolean } }>> }
  const required = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).filter(([, o]) => o.requestBody).map(([method, o]) => [`${method.toUpperCase()} ${path}`, o.requestBody!.required]))
  expect(required.filter(([, r]) => !r).map(([op]) => op)).toEqual(['POST /api/v1/me/servers/{slug}/keys', 'POST /api/v1/me/servers/{slug}/test'])
  expect(required.length).toBeGreaterThan(10)
})

test('every route that needs a session says so as its security, the session cookie, named as this site names it', async () => {
  type Doc = { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>; components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> } }
  const docOf = async (base_url: string) => (await (await call(await testApp(testRuntime({ site: { base_url } })), 'GET', '/api/docs/json')).json()) as Doc
  const doc = await docOf('http://localhost:8080')
  const sessionOps = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, o]) => ({ op: `${method.toUpperCase()} ${path}`, security: o.security })))
    .filter(({ op }) => op.includes(' /api/v1/me') || op.includes(' /api/v1/admin/'))
  expect(sessionOps.length).toBeGreaterThan(30)
  expect(sessionOps.filter((o) => JSON.stringify(o.security) !== '[{"SessionCookie":[]}]')).toEqual([])
  expect(doc.components.securitySchemes.SessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'votelist_session' })
  expect((await docOf('https://vote.example.org')).components.securitySchemes.SessionCookie).toMatchObject({ name: '__Host-votelist_session' })
})
