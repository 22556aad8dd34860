import { staticPlugin } from '@elysiajs/static'
import { Elysia, NotFoundError } from 'elysia'
import { dashboardAssets } from './dashboard/routes.ts'
import { join } from './file-path.ts'
import { atFirstUse } from './first-use.ts'
import { webDir } from './paths.ts'

// The embedded files under /assets: web/assets, and the dashboard's web/dashboard at
// /assets/dashboard, served by @elysiajs/static (type, cache policy, ETag and 304). The plugin
// lists, reads and hashes every file before it can route them, about 8 ms that every start paid
// before its first answer; so its routes are an app of their own, made at the first request under
// /assets, to which this route hands every such request. A path it has no file for gets the
// site's own 404.
export function assetRoutes() {
  // A mount that failed (a file it could not read) is tried again at the next request.
  const mount = atFirstUse(async () => new Elysia()
    // alwaysStatic is explicit because the plugin otherwise reads NODE_ENV, which `bun build`
    // inlines: one behaviour in both.
    .use(await staticPlugin({ assets: join(webDir, 'assets'), prefix: '/assets', alwaysStatic: true, maxAge: 3600, silent: true }))
    .use(await dashboardAssets()))
  return new Elysia({ name: 'http.assets' }).get('/assets/*', async ({ request }) => {
    // A HEAD is answered from the GET's answer, as for any route (its length included).
    const asked = request.method === 'HEAD' ? new Request(request, { method: 'GET' }) : request
    const answer = await (await mount()).handle(asked)
    if (answer.status === 404) throw new NotFoundError()
    return answer
  }, { detail: { hide: true } })
}
