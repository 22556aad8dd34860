import { expect, test } from 'bun:test'
import { sessionCookieName } from '../../src/accounts/session.ts'
import { browserForFile } from '../chromium.ts'
import { seedServer, testApp, testRuntime } from '../helpers.ts'
import { animatedGif, png } from '../media/images.ts'
import { ownerSession } from '../owner/session.ts'
import { onFreeDualStackPort } from '../real-server.ts'
import { recordPageProblems } from './page-checks.ts'

// The banner in the dashboard, in Chromium: a preview that tells the size before sending, the
// site's refusal under the field, the upload shown at once, and Remove.

const browser = browserForFile()

test('an owner previews, is refused a wrong size, uploads an animated GIF banner, then removes it', async () => {
  const { port, rt, app } = await onFreeDualStackPort(async (port) => {
    const rt = testRuntime({ site: { base_url: `http://127.0.0.1:${port}` } }, Date.now())
    return { port, rt, app: (await testApp(rt)).listen({ hostname: '::', port }) }
  })
  const base = `http://127.0.0.1:${port}`
  const owner = await ownerSession(rt, 'alice@example.com')
  const { server } = await seedServer(rt, { name: 'Emerald Valley' }, 'alice@example.com')
  const context = await browser().newContext({ viewport: { width: 390, height: 844 } })
  await context.addCookies([{ name: sessionCookieName(rt.siteUrl), value: owner.headers.cookie.split('=').slice(1).join('='), url: base }])
  const page = await context.newPage()
  const problems = recordPageProblems(page)
  page.on('dialog', (d) => d.accept())
  try {
    await page.goto(`${base}/dashboard/servers/${server.slug}`)
    const section = page.locator('section.card', { has: page.getByRole('heading', { name: 'Banner' }) })
    await section.getByText('No banner').waitFor()
    // The icon beside the name: the site's default one until the server sends its own.
    expect(await page.locator('.server-title img.server-icon').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(64)

    const field = section.locator('[data-field="banner"]')
    await field.locator('input[type="file"]').setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: Buffer.from(png(469, 60)) })
    await field.getByText('This image is 469×60; a banner must be 468×60.').waitFor()
    expect(await field.locator('img.banner-preview').isVisible()).toBe(true)
    await section.getByRole('button', { name: 'Upload the banner' }).click()
    await field.locator('.field-error').getByText('Banner must be 468×60 pixels; this PNG is 469×60').waitFor()
    expect(await field.locator('input[type="file"]').getAttribute('aria-invalid')).toBe('true')

    await field.locator('input[type="file"]').setInputFiles({ name: 'anim.gif', mimeType: 'image/gif', buffer: Buffer.from(animatedGif(468, 60, 3)) })
    await field.getByText('468×60: ready to upload.').waitFor()
    await section.getByRole('button', { name: 'Upload the banner' }).click()
    const current = page.locator('section.card img[alt="Current banner of Emerald Valley"]')
    await current.waitFor()
    expect(await current.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(468)
    expect(rt.db.query('SELECT type, width, height FROM server_banner').all()).toEqual([{ type: 'image/gif', width: 468, height: 60 }])

    await page.getByRole('button', { name: 'Remove the banner' }).click()
    await page.locator('section.card', { has: page.getByRole('heading', { name: 'Banner' }) }).getByText('No banner').waitFor()
    expect(rt.db.query('SELECT count(*) AS n FROM server_banner').get()).toEqual({ n: 0 })

    // My servers shows the icon too.
    await page.goto(`${base}/dashboard`)
    await page.locator('td img.server-icon').first().waitFor()
    expect(problems).toEqual([])
  } finally {
    await context.close()
    await app.stop()
  }
}, 60_000)
