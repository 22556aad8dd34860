import { staticPlugin } from '@elysiajs/static'
import { Elysia } from 'elysia'
import { join } from 'node:path'
import type { Config } from '../config/load.ts'
import { escapeHtml } from '../pages/html.ts'
import { webDir } from '../paths.ts'

const dashboardDir = join(webDir, 'dashboard')

// The dashboard runs only its own files: no inline script or style, nothing from another host,
// never framed. Its scripts talk to the owner API of the same origin.
export const DASHBOARD_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ')

// nosniff and the referrer policy come with every answer of the site (src/http/security-headers.ts).
const securityHeaders = {
  'content-security-policy': DASHBOARD_CSP,
  'x-frame-options': 'DENY',
}

// index.html names the site and lists its game modes (the add-server form offers them): the
// values are escaped into the page once, at start; scripts read them from data-* attributes.
function renderShell(template: string, config: Config): string {
  return template
    .replaceAll('{{siteName}}', escapeHtml(config.site.name))
    .replaceAll('{{modes}}', escapeHtml(config.servers.modes.join(',')))
}

// /dashboard and every path under it answer the same page (the script routes on the path);
// the modules and stylesheet are web/dashboard's other files, at /assets/dashboard/…, from the
// files embedded in the binary (or the checkout in development). `no-cache` lets the browser
// keep them but revalidate by ETag, so an upgraded binary never runs with yesterday's scripts.
export async function dashboardRoutes(config: Config) {
  const page = renderShell(await Bun.file(join(dashboardDir, 'index.html')).text(), config)
  const answer = () => new Response(page, {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...securityHeaders },
  })
  const detail = { hide: true }
  return new Elysia({ name: 'dashboard.routes' })
    .use(await staticPlugin({
      assets: dashboardDir, prefix: '/assets/dashboard', alwaysStatic: true, maxAge: 0, directive: 'no-cache',
      ignorePatterns: [/index\.html$/, /\.DS_Store$/], headers: securityHeaders, silent: true,
    }))
    .get('/dashboard', answer, { detail })
    .get('/dashboard/*', answer, { detail })
}
