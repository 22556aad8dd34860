import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DASHBOARD_CSP } from '../../src/dashboard/routes.ts'
import { call, cleanupTemp, testApp, testRuntime } from '../helpers.ts'
import { repoRoot } from '../spawn.ts'

afterAll(cleanupTemp)

const dir = join(repoRoot, 'web/dashboard')
const scripts = readdirSync(dir).filter((f) => f.endsWith('.js'))

describe('/dashboard', () => {
  test('every dashboard path answers the page, with the site\'s name escaped in and a strict CSP', async () => {
    const rt = testRuntime({ site: { name: 'Bob\'s <b>"List"</b> & co' }, servers: { modes: ['survival', 'skyblock'] } })
    const app = await testApp(rt)
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/login', '/dashboard/servers/emerald-valley/deliveries']) {
      const res = await call(app, 'GET', path)
      expect({ path, status: res.status }).toEqual({ path, status: 200 })
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP)
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('cache-control')).toBe('no-cache')
      const html = await res.text()
      expect(html).toContain('<title>My servers · Bob&#39;s &lt;b&gt;&quot;List&quot;&lt;/b&gt; &amp; co</title>')
      expect(html).toContain('data-modes="survival,skyblock"')
      expect(html).not.toContain('{{')
    }
    expect(DASHBOARD_CSP).toStartWith("default-src 'self'; script-src 'self'; style-src 'self'")
  })

  test('its scripts and stylesheet are served from web/dashboard at /assets/dashboard, revalidated, index.html only at /dashboard', async () => {
    const app = await testApp(testRuntime())
    for (const file of [...scripts, 'dashboard.css']) {
      const res = await call(app, 'GET', `/assets/dashboard/${file}`)
      expect({ file, status: res.status }).toEqual({ file, status: 200 })
      expect(res.headers.get('cache-control')).toBe('no-cache')
      expect(await res.text()).toBe(readFileSync(join(dir, file), 'utf8'))
    }
    expect((await call(app, 'GET', '/assets/dashboard/app.js')).headers.get('content-type')).toStartWith('text/javascript')
    expect((await call(app, 'GET', '/assets/dashboard/index.html')).status).toBe(404)
  })

  test('the scripts import only files that exist, and never write markup from strings', () => {
    for (const file of scripts) {
      const source = readFileSync(join(dir, file), 'utf8')
      for (const [, target] of source.matchAll(/^import .* from '\.\/([^']+)'$/gm)) expect({ file, target, exists: scripts.includes(target) }).toEqual({ file, target, exists: true })
      // Text goes into the page as text nodes (dom.js h()); these would parse a string as HTML or code.
      expect({ file, found: source.match(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/g) }).toEqual({ file, found: null })
    }
  })
})
