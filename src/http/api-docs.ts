import { openapi } from '@elysiajs/openapi'
import { VERSION } from '../version.ts'

// The API reference, generated from the routes' schemas and `detail` (so it says what the code
// does): the UI at /api/docs, the OpenAPI document at /api/docs/json. Only /api/ routes are
// listed; pages and assets are not API. The document is built on first request and cached, so
// it costs the API routes nothing.
export const apiDocs = () =>
  openapi({
    path: '/api/docs',
    specPath: '/api/docs/json',
    // The plugin makes the UI fetch the document by a path relative to the page, which from
    // /api/docs resolves to /api/api/docs/json: give the absolute one.
    scalar: { url: '/api/docs/json' },
    exclude: { paths: [/^(?!\/api\/)/, /^\/api\/docs/] },
    documentation: {
      info: {
        title: 'votelist API',
        version: VERSION,
        description: [
          'All times are UTC, written ISO 8601 with milliseconds (`2026-11-22T10:15:30.123Z`).',
          // No double quotes in this text: the plugin writes it unescaped into an HTML attribute.
          'Errors: a JSON body `{ok: false, error: {code, message}}` with 400 INVALID_PARAMETER, 401 MISSING_KEY / INVALID_KEY / UNAUTHENTICATED, 403 FORBIDDEN, 404 NOT_FOUND, 409 CONFLICT, 429 RATE_LIMITED (with Retry-After) or VOTE_TOO_SOON, 500 INTERNAL. With `format=text`, the same status and one line of text.',
          'Keyed endpoints take the server\'s API key as query `key`, header `X-Api-Key` or `Authorization: Bearer <key>` (several: they must be equal), and allow 600 requests a minute per key; public endpoints 120 a minute per client address. Limited answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.',
        ].join('\n\n'),
      },
      tags: [
        { name: 'Verification', description: 'Keyed: what an owner\'s plugin or website polls to reward votes.' },
      ],
      components: {
        securitySchemes: {
          ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          BearerKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <key>' },
          ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
        },
      },
    },
  })
