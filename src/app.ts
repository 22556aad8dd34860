import { Elysia } from 'elysia'
import { errorHandler } from './http/error-handler.ts'
import { healthRoutes } from './http/health.ts'
import type { Runtime } from './runtime.ts'

// Mounts the feature modules; no logic lives here.
export function createApp(rt: Runtime) {
  return new Elysia()
    .use(errorHandler(rt.log))
    .use(healthRoutes())
}
export type App = ReturnType<typeof createApp>
