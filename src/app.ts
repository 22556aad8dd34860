import { Elysia } from 'elysia'
import { apiDocs } from './http/api-docs.ts'
import { errorHandler } from './http/error-handler.ts'
import { healthRoutes } from './http/health.ts'
import { assetRoutes } from './http/static.ts'
import type { Runtime } from './runtime.ts'
import { verificationRoutes } from './votes/verification-routes.ts'

// Mounts the feature modules; no logic lives here. Async because the static plugin lists the
// embedded files before it can route them.
export async function createApp(rt: Runtime) {
  return new Elysia()
    .use(errorHandler(rt.log))
    .use(await assetRoutes())
    .use(healthRoutes())
    .use(apiDocs())
    .use(verificationRoutes(rt))
}
export type App = Awaited<ReturnType<typeof createApp>>
