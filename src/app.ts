import { Elysia, t } from 'elysia'
import { accountRoutes } from './accounts/routes.ts'
import { adminSiteRoutes } from './admin/site-routes.ts'
import { adminUserRoutes } from './admin/user-routes.ts'
import { assetRoutes } from './assets.ts'
import { captchaRoutes } from './captcha/routes.ts'
import { channelRoutes } from './channels/routes.ts'
import { dashboardRoutes } from './dashboard/routes.ts'
import { deliveryRoutes } from './deliveries/routes.ts'
import { join } from './file-path.ts'
import { bodyLimit } from './http/body-limit.ts'
import { errorHandler } from './http/error-handler.ts'
import { JSON_ANSWER, securityHeaders } from './http/security-headers.ts'
import { languageRoutes } from './i18n/routes.ts'
import { keyRoutes } from './keys/routes.ts'
import { mediaRoutes } from './media/routes.ts'
import { ownershipRoutes } from './ownership/routes.ts'
import { webDir } from './paths.ts'
import { apiDocs } from './pages/api-docs.ts'
import { pageForError, pageView } from './pages/layout.ts'
import { pageRoutes } from './pages/routes.ts'
import { serverRoutes } from './servers/routes.ts'
import type { Site } from './site.ts'
import { statsRoutes } from './stats/routes.ts'
import { vendorRoutes } from './stats/vendor-routes.ts'
import { checkRoute } from './verification/check-route.ts'
import { verificationRoutes } from './verification/routes.ts'
import { VERSION } from './version.ts'
import { voteRoutes } from './votes/routes.ts'

// Mounts the feature modules, the static assets and the liveness check; no logic lives here.
export function createApp(site: Site) {
  // The check endpoint, which plugins poll, is also a route of the HTTP server itself, in front
  // of the framework's router (see check-route.ts); requests it does not answer go to the app.
  // So is the liveness check, a fixed answer (healthAnswer, below). Every other route goes
  // through Elysia's own router (systemRouter: false): handing each of ~150 routes to Bun's
  // router cost about 10 ms of every start (a handler made per route, twice, by Elysia's
  // listen()), and routing is not where a request's time goes. serve.ts relies on it: it gives
  // Bun.serve the app's serve.routes and app.fetch for everything else.
  const framework = (request: Request): Promise<Response> => app.handle(request)
  const routes = { '/api/v1/votes/check': { GET: checkRoute(site, framework) }, '/api/v1/health': { GET: healthAnswer() } }
  const app: Elysia = new Elysia({ systemRouter: false, serve: { routes } })
  return app
    .use(securityHeaders())
    .use(errorHandler(site.log, (e, request) => pageForError(pageView(site.config, request), site.log, e), () => app.routes))
    // Reads the routes of the whole app (mounted later, a test's too) for their own limits.
    .use(bodyLimit(site.config.http.max_body_bytes, () => app.routes))
    // web/assets and web/dashboard at /assets, mounted at their first request.
    .use(assetRoutes())
    .use(dashboardRoutes(site.config))
    // Answers once the server listens, which is only after the migrations have run. The server
    // answers it itself (healthAnswer); this route describes it and answers in-process requests.
    .get('/api/v1/health', () => HEALTH, {
      response: t.Object({ ok: t.Literal(true), version: t.String() }),
      detail: { summary: 'Liveness and version', tags: ['System'] },
    })
    .use(apiDocs(site.config))
    .use(accountRoutes(site))
    .use(adminUserRoutes(site))
    .use(adminSiteRoutes(site))
    .use(serverRoutes(site))
    .use(keyRoutes(site))
    .use(channelRoutes(site))
    .use(ownershipRoutes(site))
    .use(deliveryRoutes(site))
    .use(statsRoutes(site))
    .use(mediaRoutes(site, join(webDir, 'assets', 'default-icon.png')))
    .use(vendorRoutes())
    .use(verificationRoutes(site))
    .use(pageRoutes(site))
    .use(languageRoutes(site))
    .use(voteRoutes(site))
    .use(captchaRoutes(site))
}
export type App = ReturnType<typeof createApp>

// GET /api/v1/health as a static answer of the HTTP server itself (HEAD too), the same as the
// framework's route answers: its body never changes while the process lives. A monitor polling it
// costs no JavaScript, and the first health check after a start no longer waits for the framework's
// first request (its handler's first call and the route's composition, about 6 ms of a start:
// 67.6 against 73.5 ms on an existing database, 20 alternating starts). Bun adds an ETag.
const HEALTH = { ok: true as const, version: VERSION }
export function healthAnswer(): Response {
  return new Response(JSON.stringify(HEALTH), { headers: JSON_ANSWER })
}
