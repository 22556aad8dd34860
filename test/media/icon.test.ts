import { afterAll, expect, test } from 'bun:test'
import { runPingRound } from '../../src/stats/round.ts'
import { describeBackends } from '../backends.ts'
import { call, cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'
import { javaServer } from '../stats/peers.ts'
import { dataUrl, png } from './images.ts'
import { expectServedImage } from './served-image.ts'

afterAll(cleanupTemp)

const START = Date.UTC(2026, 10, 22, 12, 0, 0)
const MOTD = { text: '§6Emerald ', extra: [{ text: 'Valley', color: '#3FA9F5', bold: true }, { text: '\n§aSurvival §l1.21', italic: true }] }

describeBackends('the icon and MOTD of a real Java server, after one ping round', (backend) => {
  test('the icon is served as its PNG; the row shows icon, coloured MOTD without §, copy address and Vote', async () => {
    const favicon = png(64, 64, [200, 40, 40])
    const peer = await javaServer({ version: '1.21.4', online: 5, max: 50, motd: MOTD, favicon: dataUrl(favicon) })
    try {
      const rt = await siteOn(backend, { network: { allow_private_targets: true }, stats: { ping_interval_seconds: 60, ping_timeout_seconds: 10 } }, START)
      const { server } = await seedServer(rt, { name: 'Emerald Valley', host: '127.0.0.1', port: peer.port })
      const app = await testApp(rt)
      await runPingRound(rt, rt.clock.now(), { spreadMs: 0 })

      const record = (await (await call(app, 'GET', `/api/v1/servers/${server.slug}`)).json()).server
      expect(record.motd).toBe('Emerald Valley\nSurvival 1.21')
      expect(record.iconUrl).toMatch(new RegExp(`^http://localhost:8080/api/v1/servers/${server.slug}/icon\\.png\\?v=[0-9a-f]{16}$`))
      const etag = await expectServedImage(app, record.iconUrl, favicon, 'image/png')
      const iconPath = new URL(record.iconUrl).pathname + new URL(record.iconUrl).search
      expect((await call(app, 'GET', `/api/v1/servers/${server.slug}/icon.png`, { headers: { 'if-none-match': etag } })).status).toBe(304)

      const page = await (await call(app, 'GET', '/')).text()
      const row = page.slice(page.indexOf('<li class="server-row">'), page.indexOf('</li>'))
      expect(row).toContain(`<img class="server-icon" src="${iconPath.replace('&', '&amp;')}" width="64" height="64" alt=""`)
      expect(row).toContain('<p class="motd"><span class="mc-320">Emerald </span><span class="mc-123 mc-b">Valley</span></p>')
      expect(row).toContain(`<code id="address-1">127.0.0.1:${peer.port}</code><button type="button" class="button-small" data-copy="address-1" hidden>Copy`)
      expect(row).toContain(`<a class="button button-primary" href="/serveur/${server.slug}/voter">Vote<span class="visually-hidden"> for Emerald Valley</span></a>`)
      expect(page).not.toContain('§')
      const serverPage = await (await call(app, 'GET', `/serveur/${server.slug}`)).text()
      // Both lines; a colour code clears the formats before it (the italic of its component), as in the game.
      expect(serverPage).toContain('<p class="motd"><span class="mc-320">Emerald </span><span class="mc-123 mc-b">Valley</span><br><span class="mc-131">Survival </span><span class="mc-131 mc-b">1.21</span></p>')
      expect(serverPage).not.toContain('§')
    } finally {
      await peer.close()
    }
  }, 30_000)

  test('written only when it changes; kept while the server is down; removed when it answers without a valid one', async () => {
    const rt = await siteOn(backend, { network: { allow_private_targets: true }, stats: { ping_interval_seconds: 60, ping_timeout_seconds: 10 } }, START)
    // The peer reads its options at each ping: changing `favicon` changes its next answer.
    const opts = { online: 1, max: 10, motd: 'hi', favicon: dataUrl(png(64, 64, [1, 2, 3])) as string | undefined }
    const peer = await javaServer(opts)
    const { server } = await seedServer(rt, { name: 'Changing', host: '127.0.0.1', port: peer.port })
    const iconRow = () => rt.row<{ hash: string; at: number }>('SELECT hash, updated_at AS at FROM server_icon WHERE server_num = ?', server.num)
    const round = async () => {
      rt.clock.advance(60_000)
      await runPingRound(rt, rt.clock.now(), { spreadMs: 0 })
    }
    let kept
    try {
      await round()
      kept = (await iconRow())!
      await round()
      expect(await iconRow()).toEqual(kept) // the same icon: not written again
      opts.favicon = dataUrl(png(48, 48, [9, 9, 9]))
      await round()
      expect((await iconRow())!.hash).not.toBe(kept.hash)
      kept = (await iconRow())!
    } finally {
      await peer.close()
    }
    await round()
    expect((await rt.store.servers.status(server.num))?.online).toBe(false)
    expect(await iconRow()).toEqual(kept)
    // Up again without a favicon, then with one too large for an icon (128×128): no icon.
    for (const favicon of [undefined, dataUrl(png(128, 128))]) {
      const again = await javaServer({ online: 1, max: 10, motd: 'hi', favicon })
      await rt.rows('UPDATE server SET port = ? WHERE num = ?', again.port, server.num)
      await rt.rows('DELETE FROM server_icon WHERE server_num = ?', server.num)
      await rt.rows('INSERT INTO server_icon (server_num, png, hash, updated_at) VALUES (?, ?, ?, 0)', server.num, png(64, 64), 'earlier')
      try {
        await round()
      } finally {
        await again.close()
      }
      expect((await rt.store.servers.status(server.num))?.online).toBe(true)
      expect(await iconRow()).toBeNull()
    }
    // The site's own icon stands in.
    const app = await testApp(rt)
    const fallback = await call(app, 'GET', `/api/v1/servers/${server.slug}/icon.png`)
    expect(fallback.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await fallback.arrayBuffer()).equals(Buffer.from(await Bun.file(new URL('../../web/assets/default-icon.png', import.meta.url)).bytes()))).toBe(true)
    expect((await (await call(app, 'GET', `/api/v1/servers/${server.slug}`)).json()).server.iconUrl).toBe(`http://localhost:8080/api/v1/servers/${server.slug}/icon.png`)
  }, 30_000)
})
