import { Elysia } from 'elysia'
import { sessionCookieName } from '../accounts/session.ts'
import type { Config } from '../config/load.ts'
import { createSiteUrl } from '../http/site-url.ts'
import { atFirstUse } from '../first-use.ts'
import { renderApiDocsPage, type OpenApiDocument } from './api-docs-page.ts'
import { repairDocument, type DocumentedRoute } from './api-docs-repair.ts'
import { htmlResponse, pageView } from './layout.ts'
import { VERSION } from '../version.ts'

const PAGE = '/api/docs'
const DOCUMENT = '/api/docs/json'

// What a plugin sees of the app it is mounted in (protected members of Elysia).
interface GlobalView {
  getGlobalRoutes(): unknown
  getGlobalDefinitions(): unknown
}

// The API reference, generated from the routes' schemas and `detail` (so it says what the code
// does): the OpenAPI document at /api/docs/json, and at /api/docs a page the site renders from
// that same document (the plugin's own viewer loads its script from a CDN: a self-hosted site
// must not make its visitors' browsers call a third party). Only /api/ routes and the vote
// form's POST are listed; pages and assets are not API. The document and the page are built on
// first request and cached, so they cost the API routes nothing; the OpenAPI plugin itself is
// loaded then too, so a site whose reference nobody reads never holds its code.
export function apiDocs(config: Config) {
  const docs = new Elysia({ name: 'http.api-docs' })
  // The plugin's document handler, called directly so that the page shows exactly what
  // /api/docs/json serves (it returns its cached document while the routes are unchanged). The
  // plugin is not mounted: it is handed the site's routes and models as mounting would hand them
  // (Elysia's use() sets these two functions on a plugin), through this plugin, which is mounted.
  const mounted = docs as unknown as GlobalView
  const documentHandler = atFirstUse(() => import('@elysiajs/openapi').then(({ openapi }) => {
    const spec = openapiDocument(openapi, sessionCookieName(createSiteUrl(config)))
    Object.assign(spec, { getGlobalRoutes: () => mounted.getGlobalRoutes(), getGlobalDefinitions: () => mounted.getGlobalDefinitions() } satisfies GlobalView)
    const handler = spec.routes.find((r) => r.path === DOCUMENT)?.handler
    if (typeof handler !== 'function') throw new Error(`@elysiajs/openapi no longer serves ${DOCUMENT} from a route handler`)
    const repaired = new WeakSet<object>()
    return () => {
      const doc = (handler as () => OpenApiDocument)()
      if (!repaired.has(doc)) {
        repairDocument(doc, mounted.getGlobalRoutes() as DocumentedRoute[])
        repaired.add(doc)
      }
      return doc
    }
  }))
  const documentOf = async () => (await documentHandler())()
  // One page per language of the site's header and footer (the reference itself is English).
  let cached: { doc: OpenApiDocument; pages: Map<string, string> } | null = null
  return docs
    .get(DOCUMENT, documentOf, { detail: { hide: true } })
    .get(PAGE, async ({ request }) => {
      const doc = await documentOf()
      if (cached?.doc !== doc) cached = { doc, pages: new Map() }
      const view = pageView(config, request)
      let page = cached.pages.get(view.tr.lang)
      if (!page) cached.pages.set(view.tr.lang, page = renderApiDocsPage(view, doc, DOCUMENT))
      return htmlResponse(view, page)
    }, { detail: { hide: true } })
}

const openapiDocument = (openapi: typeof import('@elysiajs/openapi').openapi, sessionCookie: string) =>
  openapi({
    path: PAGE,
    specPath: DOCUMENT,
    provider: null,
    // staticFile: the plugin leaves out every path with a dot by default, which would drop the
    // icon and badge routes (icon.png, badge.svg).
    // The vote form's POST is listed too: with Accept: application/json it is the JSON API of
    // voting (the contract's 201 answer). Its GET is the page (tagged Pages), left out.
    exclude: { paths: [/^(?!\/api\/|\/serveur\/:slug\/voter$)/, /^\/api\/docs/], tags: ['Pages'], staticFile: false },
    documentation: {
      info: {
        title: 'votelist API',
        version: VERSION,
        description: [
          'All times are UTC, written ISO 8601 with milliseconds (`2026-11-22T10:15:30.123Z`).',
          'Errors: a JSON body `{ok: false, error: {code, message}}` with 400 INVALID_PARAMETER, 401 MISSING_KEY / INVALID_KEY / UNAUTHENTICATED, 403 FORBIDDEN, 404 NOT_FOUND, 405 METHOD_NOT_ALLOWED (a method the path does not take; the `Allow` header lists those it takes), 409 CONFLICT, 413 PAYLOAD_TOO_LARGE (a request body over http.max_body_bytes, 64 KiB by default, checked before the body is read; a route that takes more, such as an upload, states its own limit as x-max-body-bytes), 429 RATE_LIMITED (with Retry-After) or VOTE_TOO_SOON, 500 INTERNAL. With `format=text`, the same status and one line of text. When one body field, query or path parameter is at fault (a 400 INVALID_PARAMETER, a 409 CONFLICT for a slug or e-mail address already taken, a 404 NOT_FOUND for a slug no listed server has, a 403 FORBIDDEN at login for a disabled account\'s e-mail address), `error.field` names it, as sent (`{code: "INVALID_PARAMETER", message: "port must be an integer from 1 to 65535", field: "port"}`), so a form can show the message under that field; it is absent when no single field is at fault. `code` and `message` are the same with or without it. Where one code covers several refusals and no field is at fault, `error.reason` says which, for a client to word it in its own language (the message stays the full English sentence): 403 FORBIDDEN `CROSS_SITE`, `ADMINS_ONLY`, `NOT_YOURS`, `REGISTRATION_CLOSED`; 409 CONFLICT `LAST_ADMIN`, `OWN_ACCOUNT`, `SQLITE_ONLY` (backup), `NO_CHANNEL` (test), `TEST_NOT_RESENT`, `ATTEMPT_IN_PROGRESS`, `ALREADY_QUEUED`, `CHANNEL_REMOVED` (redeliver), `MOTD_UNREADABLE`, `TOKEN_NOT_IN_MOTD`, `ADDRESS_CHANGED` (verify). New reasons may be added; a client that does not know one shows the message.',
          'Keyed endpoints take the server\'s API key as query `key`, header `X-Api-Key` or `Authorization: Bearer <key>` (several: they must be equal), and allow 600 requests a minute per key; public endpoints 120 a minute per client address. Limited answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.',
        ].join('\n\n'),
      },
      tags: [
        { name: 'Verification', description: 'Keyed: what an owner\'s plugin or website polls to reward votes.' },
        { name: 'Admin', description: 'Administrators only, with the session cookie of an administrator\'s account: 401 UNAUTHENTICATED without a session, 403 FORBIDDEN for any other account. Every change is written to the audit log (GET /api/v1/admin/audit) in the same transaction. Settings are read here, never changed: votelist.toml is the one place they change.' },
      ],
      components: {
        securitySchemes: {
          ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          BearerKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <key>' },
          ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
          SessionCookie: {
            type: 'apiKey', in: 'cookie', name: sessionCookie,
            description: 'The session cookie that POST /api/v1/auth/login (or register, or reset) sets: HttpOnly, SameSite=Lax, 30 days; prefixed __Host- and Secure when site.base_url is https.',
          },
        },
      },
    },
  })
