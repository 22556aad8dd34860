import { afterAll, expect, test } from 'bun:test'
import { describeBackends } from '../backends.ts'
import { call, cleanupTemp, siteOn, testApp } from '../helpers.ts'
import { json, ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

// Every route of the administrator's API, with a request that an administrator would make.
const ADMIN_ROUTES: [method: string, path: string, body?: unknown][] = [
  ['GET', '/api/v1/admin/users'],
  ['PATCH', '/api/v1/admin/users/:id', { disabled: true }],
  ['DELETE', '/api/v1/admin/users/:id'],
  ['POST', '/api/v1/admin/users/:id/reset-link'],
  ['GET', '/api/v1/admin/servers'],
  ['GET', '/api/v1/admin/tasks'],
  ['GET', '/api/v1/admin/queue'],
  ['GET', '/api/v1/admin/backup'],
  ['GET', '/api/v1/admin/config'],
  ['GET', '/api/v1/admin/audit'],
]

describeBackends('the administrator\'s API', (backend) => {
  test('every admin route: 401 without a session, 403 FORBIDDEN to an owner, and nothing changes', async () => {
    const rt = await siteOn(backend)
    const app = await testApp(rt)
    // The table is the whole admin API: a new route cannot be left out of this test.
    const mounted = app.routes.filter((r) => r.path.startsWith('/api/v1/admin')).map((r) => `${r.method} ${r.path}`)
    expect(mounted.sort()).toEqual(ADMIN_ROUTES.map(([m, p]) => `${m} ${p}`).sort())

    await ownerSession(rt, 'admin@example.com')
    const owner = await ownerSession(rt, 'owner@example.com')
    for (const [method, route, body] of ADMIN_ROUTES) {
      const path = route.replace(':id', owner.user.id)
      const stranger = await json(await call(app, method, path, { body }))
      expect({ method, route, ...stranger }).toEqual({ method, route, status: 401, body: { ok: false, error: { code: 'UNAUTHENTICATED', message: 'log in first' } } })
      const r = await call(app, method, path, { body, headers: owner.headers })
      expect(r.headers.get('cache-control')).toBe('no-store')
      expect({ method, route, ...(await json(r)) }).toEqual({ method, route, status: 403, body: { ok: false, error: { code: 'FORBIDDEN', message: 'administrators only', reason: 'ADMINS_ONLY' } } })
    }
    expect(await rt.store.users.byId(owner.user.id)).toMatchObject({ disabled: false })
    expect(await rt.row('SELECT count(*) AS n FROM audit_event')).toEqual({ n: 0 })
    expect(await rt.row('SELECT count(*) AS n FROM password_reset')).toEqual({ n: 0 })
  })
})
