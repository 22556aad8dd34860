import { afterAll, beforeAll, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../chromium.ts'
import { freePort } from '../deliveries/setup.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { killChildren, mainScript, spawnChild, type Child } from '../spawn.ts'
import { recordExternalRequests, recordPageProblems } from './page-checks.ts'

// A first run as an admin makes it: a votelist.toml that only changes the port, nothing else set
// (no site.base_url). Sign-up works in a real browser from http://localhost:N and from
// http://127.0.0.1:N, and the start-up log says once which key would set the public address.

let browser: Browser
let site: Child
let port = 0

beforeAll(async () => {
  port = freePort()
  const dir = tempDir('votelist-first-run-')
  writeFileSync(join(dir, 'votelist.toml'), `[http]\nport = ${port}\n`)
  site = spawnChild([process.execPath, mainScript, 'serve'], { cwd: dir })
  await site.waitFor('err', /votelist listening/)
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  killChildren()
  cleanupTemp()
})

// Signs up through the dashboard opened at `base`: the first account through the first-run
// page, any later one through the sign-up page.
async function signUp(base: string, email: string, first: boolean) {
  const context = await browser.newContext()
  const external = await recordExternalRequests(context)
  const page = await context.newPage()
  const problems = recordPageProblems(page)
  await page.goto(`${base}/dashboard`)
  if (first) {
    await page.waitForURL(`${base}/dashboard/setup`)
  } else {
    await page.waitForURL(`${base}/dashboard/login`)
    await page.getByRole('link', { name: 'Create one' }).click()
  }
  const form = page.locator('form.auth-form')
  await form.getByLabel('E-mail address').fill(email)
  await form.getByLabel('Password').fill('correct horse battery staple')
  await form.getByRole('button', { name: first ? 'Create the administrator account' : 'Create my account' }).click()
  await page.getByRole('heading', { name: 'List your first server' }).waitFor()
  const me = await (await page.request.get(`${base}/api/v1/me`)).json() as { user: { id: string; email: string; isAdmin: boolean; createdAt: string } }
  await context.close()
  expect({ external, problems }).toEqual({ external: [], problems: [] })
  return me.user
}

test('only [http] port = N: the administrator signs up at http://localhost:N, an owner at http://127.0.0.1:N', async () => {
  expect(await signUp(`http://localhost:${port}`, 'admin@example.com', true)).toEqual({ email: 'admin@example.com', isAdmin: true, id: expect.any(String), createdAt: expect.any(String) })
  expect(await signUp(`http://127.0.0.1:${port}`, 'owner@example.com', false)).toEqual({ email: 'owner@example.com', isAdmin: false, id: expect.any(String), createdAt: expect.any(String) })
  // One line at start-up says links use a default address and names the key to set.
  const notes = site.err.filter((line) => line.includes('site.base_url'))
  expect(notes).toEqual([expect.stringContaining(`WARN site.base_url is not set: links use the default address http://localhost:${port}`)])
}, 60_000)
