import { afterAll, expect, test } from 'bun:test'
import { describeBackends, type Backend } from '../backends.ts'
import { call, cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'
import { ownerSession } from '../owner/session.ts'
import { animatedGif, jpegHeader, png, webpHeader } from './images.ts'
import { expectServedImage } from './served-image.ts'

afterAll(cleanupTemp)

async function setup(backend: Backend) {
  const rt = await siteOn(backend)
  const app = await testApp(rt)
  const alice = await ownerSession(rt, 'alice@example.com')
  const bob = await ownerSession(rt, 'bob@example.com')
  const { server } = await seedServer(rt, { name: 'Emerald Valley' }, 'alice@example.com')
  const upload = (bytes: Uint8Array | string, type: string | null, headers: Record<string, string> = alice.headers, slug = server.slug) =>
    app.handle(new Request(`http://localhost/api/v1/me/servers/${slug}/banner`, {
      method: 'PUT', body: bytes as BodyInit, headers: { ...headers, ...(type && { 'content-type': type }) },
    }))
  return { rt, app, server, alice, bob, upload }
}

const refused = (message: string) => ({ ok: false, error: { code: 'INVALID_PARAMETER', message, field: 'banner' } })

describeBackends('PUT /api/v1/me/servers/{slug}/banner', (backend) => {
  test('a 468×60 PNG is kept and served with its own type, an ETag, and 304 when unchanged', async () => {
    const { app, server, upload } = await setup(backend)
    const image = png(468, 60)
    const r = await upload(image, 'image/png')
    expect(r.status).toBe(200)
    const body = await r.json()
    expect(body).toEqual({ ok: true, banner: { url: expect.stringMatching(new RegExp(`^http://localhost:8080/api/v1/servers/${server.slug}/banner\\?v=[0-9a-f]{16}$`)), type: 'image/png', width: 468, height: 60, size: image.length } })

    const etag = await expectServedImage(app, body.banner.url, image, 'image/png')
    const unversioned = await call(app, 'GET', `/api/v1/servers/${server.slug}/banner`)
    expect(unversioned.headers.get('cache-control')).toBe('public, max-age=300')
    const again = await call(app, 'GET', `/api/v1/servers/${server.slug}/banner`, { headers: { 'if-none-match': `W/${etag}` } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')

    // The public record and the owner's record point at it.
    expect((await (await call(app, 'GET', `/api/v1/servers/${server.slug}`)).json()).server.bannerUrl).toBe(body.banner.url)
  })

  test('an animated GIF is accepted; its type is read from its bytes, whatever the header said', async () => {
    const { app, server, upload } = await setup(backend)
    const r = await upload(animatedGif(468, 60, 3), 'image/png')
    expect((await r.json()).banner).toMatchObject({ type: 'image/gif', width: 468, height: 60 })
    const got = await call(app, 'GET', `/api/v1/servers/${server.slug}/banner`)
    expect(got.headers.get('content-type')).toBe('image/gif')
    for (const [bytes, type] of [[jpegHeader(468, 60), 'image/jpeg'], [webpHeader('VP8X', 468, 60), 'image/webp']] as const) {
      expect((await (await upload(bytes, 'application/octet-stream')).json()).banner.type).toBe(type)
    }
  })

  test('a wrong size, an HTML file sent as image/png, a 2 MiB image or a non-image type: 400 saying why; nothing kept', async () => {
    const { rt, upload } = await setup(backend)
    const cases: [Uint8Array | string, string | null, string][] = [
      [png(469, 60), 'image/png', 'banner must be 468×60 pixels; this PNG is 469×60'],
      [animatedGif(468, 61), 'image/gif', 'banner must be 468×60 pixels; this GIF is 468×61'],
      // Browsers grow a GIF's screen to hold a first frame larger than it: shown at 4000×4000.
      [animatedGif(468, 60, 1, { width: 4000, height: 4000 }), 'image/gif', 'banner must be 468×60 pixels; this GIF is 4000×4000'],
      [animatedGif(468, 60, 2, { width: 468, height: 60 }), 'image/gif', 'banner must be 468×60 pixels; this GIF is 469×60'],
      ['<!doctype html><h1>not an image</h1><script>alert(1)</script>', 'image/png', 'banner must be a PNG, GIF, JPEG or WebP image; the file sent as image/png is none of them'],
      [png(468, 60, [1, 2, 3], 2 * 1024 * 1024), 'image/png', expect.stringMatching(/^banner must be at most 1 MiB \(1,048,576 bytes\); this file is 2\.0 MiB$/) as unknown as string],
      [png(468, 60), 'text/html', 'banner must be sent as the raw body with Content-Type image/png, image/gif, image/jpeg or image/webp (not text/html)'],
      [png(468, 60), null, 'banner must be sent as the raw body with Content-Type image/png, image/gif, image/jpeg or image/webp'],
      ['', 'image/png', 'banner: the body is empty; send the image itself'],
    ]
    for (const [bytes, type, message] of cases) {
      const r = await upload(bytes, type)
      expect({ status: r.status, body: await r.json() }).toEqual({ status: 400, body: refused(message) })
    }
    expect(await rt.row('SELECT count(*) AS n FROM server_banner')).toEqual({ n: 0 })
  })

  test('a body over 4 MiB is 413 unread; another owner is 403; no session 401; DELETE removes it', async () => {
    const { app, server, upload, alice, bob } = await setup(backend)
    const huge = await upload(new Uint8Array(5 * 1024 * 1024), 'image/png')
    expect(huge.status).toBe(413)
    expect((await huge.json()).error.code).toBe('PAYLOAD_TOO_LARGE')
    expect((await upload(png(468, 60), 'image/png', bob.headers)).status).toBe(403)
    expect((await upload(png(468, 60), 'image/png', {})).status).toBe(401)
    expect((await upload(png(468, 60), 'image/png', {}, 'nope')).status).toBe(401)

    expect((await upload(png(468, 60), 'image/png')).status).toBe(200)
    const del = (headers: Record<string, string>) => call(app, 'DELETE', `/api/v1/me/servers/${server.slug}/banner`, { headers })
    expect((await del(bob.headers)).status).toBe(403)
    expect(await (await del(alice.headers)).json()).toEqual({ ok: true })
    const gone = await call(app, 'GET', `/api/v1/servers/${server.slug}/banner`)
    expect({ status: gone.status, body: await gone.json() }).toEqual({ status: 404, body: { ok: false, error: { code: 'NOT_FOUND', message: `the server "${server.slug}" has no banner` } } })
    expect((await (await call(app, 'GET', `/api/v1/servers/${server.slug}`)).json()).server.bannerUrl).toBeNull()
  })
})
