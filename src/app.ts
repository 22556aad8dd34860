import { Elysia } from 'elysia'
import { accountRoutes } from './accounts/routes.ts'
import { captchaRoutes } from './captcha/routes.ts'
import { channelRoutes } from './channels/routes.ts'
import { dashboardRoutes } from './dashboard/routes.ts'
import { deliveryRoutes } from './deliveries/routes.ts'
import { apiDocs } from './pages/api-docs.ts'
import { bodyLimit } from './http/body-limit.ts'
import { keyRoutes } from './keys/routes.ts'
import { serverRoutes } from './servers/routes.ts'
import { errorHandler } from './http/error-handler.ts'
import { pageForError } from './pages/layout.ts'
import { healthRoutes } from './http/health.ts'
import { securityHeaders } from './http/security-headers.ts'
import { assetRoutes } from './http/static.ts'
import { pageRoutes } from './pages/routes.ts'
import type { Runtime } from './runtime.ts'
import { statsRoutes } from './stats/routes.ts'
import { vendorRoutes } from './stats/vendor-routes.ts'
import { verificationRoutes } from './verification/routes.ts'
import { voteRoutes } from './votes/routes.ts'

// Mounts the feature modules; no logic lives here. Async because the static plugin lists the
// embedded files before it can route them.
export async function createApp(rt: Runtime) {
  const app = new Elysia()
  return app
    .use(securityHeaders())
    .use(errorHandler(rt.log, (e, request) => pageForError(rt.config, rt.log, e, request.url)))
    // Reads the routes of the whole app (mounted later, a test's too) for their own limits.
    .use(bodyLimit(rt.config.http.max_body_bytes, () => app.routes))
    .use(await assetRoutes())
    .use(await dashboardRoutes(rt.config))
    .use(healthRoutes())
    .use(apiDocs(rt.config))
    .use(accountRoutes(rt))
    .use(serverRoutes(rt))
    .use(keyRoutes(rt))
    .use(channelRoutes(rt))
    .use(deliveryRoutes(rt))
    .use(statsRoutes(rt))
    .use(vendorRoutes())
    .use(verificationRoutes(rt))
    .use(pageRoutes(rt))
    .use(voteRoutes(rt))
    .use(captchaRoutes(rt))
}
export type App = Awaited<ReturnType<typeof createApp>>
