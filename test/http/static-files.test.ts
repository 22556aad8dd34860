import { afterAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DASHBOARD_CSP } from '../../src/dashboard/routes.ts'
import { call, cleanupTemp, testApp, testRuntime } from '../helpers.ts'
import { repoRoot } from '../spawn.ts'

afterAll(cleanupTemp)

const md5 = (path: string) => new Bun.CryptoHasher('md5').update(readFileSync(join(repoRoot, path))).digest('base64')

describe('the embedded files under /assets', () => {
  test('a file comes with its type, its cache policy and an ETag; its ETag (or *) answers 304 unless the request asks for a fresh copy', async () => {
    const app = await testApp(testRuntime())
    const css = await call(app, 'GET', '/assets/site.css')
    expect(css.status).toBe(200)
    expect(css.headers.get('content-type')).toBe('text/css;charset=utf-8')
    expect(css.headers.get('cache-control')).toBe('public, max-age=3600')
    expect(css.headers.get('etag')).toBe(md5('web/assets/site.css'))
    expect(await css.text()).toBe(readFileSync(join(repoRoot, 'web/assets/site.css'), 'utf8'))

    for (const match of [md5('web/assets/site.css'), '*']) {
      const same = await call(app, 'GET', '/assets/site.css', { headers: { 'if-none-match': match } })
      expect({ match, status: same.status, etag: same.headers.get('etag'), body: await same.text() }).toEqual({ match, status: 304, etag: null, body: '' })
    }
    expect((await call(app, 'GET', '/assets/site.css', { headers: { 'if-none-match': '"other"' } })).status).toBe(200)
    expect((await call(app, 'GET', '/assets/site.css', { headers: { 'if-none-match': md5('web/assets/site.css'), 'cache-control': 'no-cache' } })).status).toBe(200)
  })

  test('the dashboard\'s files carry its headers, in a 304 too', async () => {
    const app = await testApp(testRuntime())
    const js = await call(app, 'GET', '/assets/dashboard/app.js')
    expect([js.status, js.headers.get('cache-control'), js.headers.get('etag')]).toEqual([200, 'no-cache', md5('web/dashboard/app.js')])
    const same = await call(app, 'GET', '/assets/dashboard/app.js', { headers: { 'if-none-match': md5('web/dashboard/app.js') } })
    expect([same.status, same.headers.get('content-security-policy'), same.headers.get('x-frame-options')]).toEqual([304, DASHBOARD_CSP, 'DENY'])
  })

  test('HEAD answers as GET does, without the body: same status, type, length and ETag', async () => {
    const app = await testApp(testRuntime())
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: app.fetch })
    try {
      for (const path of ['/assets/site.css', '/assets/dashboard/app.js']) {
        const get = await fetch(new URL(path, server.url))
        const length = (await get.arrayBuffer()).byteLength
        const head = await fetch(new URL(path, server.url), { method: 'HEAD' })
        expect({ path, status: head.status, type: head.headers.get('content-type'), length: head.headers.get('content-length'), etag: head.headers.get('etag'), body: (await head.arrayBuffer()).byteLength })
          .toEqual({ path, status: 200, type: get.headers.get('content-type'), length: String(length), etag: get.headers.get('etag'), body: 0 })
      }
      expect((await fetch(new URL('/assets/nope.css', server.url), { method: 'HEAD' })).status).toBe(404)
    } finally {
      server.stop(true)
    }
  })

  test('a file is found under its own name only: not escaped, not in another folder, not a folder', async () => {
    const app = await testApp(testRuntime())
    expect((await call(app, 'GET', '/assets/site.css/')).status).toBe(200)
    for (const path of ['/assets/site%2ecss', '/assets/Site.css', '/assets//site.css', '/assets/', '/assets/dashboard/', '/assets/i18n/en.json', '/assets/dashboard/site.css', '/assets/dashboard/index.html', '/assets/.%2e/package.json']) {
      const r = await call(app, 'GET', path)
      expect({ path, status: r.status, body: await r.json() }).toEqual({ path, status: 404, body: { ok: false, error: { code: 'NOT_FOUND', message: 'no such path' } } })
    }
  })
})
