import { Elysia, t } from 'elysia'
import { VERSION } from '../version.ts'

// Answers once the server listens, which is only after the migrations have run.
export const healthRoutes = () =>
  new Elysia({ name: 'http.health' }).get('/api/v1/health', () => ({ ok: true as const, version: VERSION }), {
    response: t.Object({ ok: t.Literal(true), version: t.String() }),
    detail: { summary: 'Liveness and version', tags: ['System'] },
  })
