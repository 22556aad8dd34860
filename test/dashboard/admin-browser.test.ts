import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchChromium } from '../chromium.ts'
import { freePort } from '../deliveries/setup.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { buildBinary, killChildren, listeningUrl, runChild, spawnChild } from '../spawn.ts'
import { javaServer, type Peer } from '../stats/peers.ts'
import { until } from '../until.ts'
import { checkView, recordExternalRequests, recordPageProblems } from './page-checks.ts'

// The administrator's dashboard in Debian's Chromium against the compiled binary: disabling an
// account (its open session, in another browser, is refused at once), promoting and demoting, a
// reset link that works once, the scheduled work and queue figures, a backup download that opens
// as the site's database, deleting an account with its servers, and the audit log of all of it.
// The tests run in order on one site.

const STEP_MS = 60_000
const PASSWORD = 'correct horse battery staple'
let base = ''
let dir = ''
let browser: Browser
let admin: Page
let game: Peer
const external: string[][] = []
const problems: string[][] = []
const contexts: BrowserContext[] = []
let ownerId = ''

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
  contexts.push(context)
  external.push(await recordExternalRequests(context))
  const page = await context.newPage()
  problems.push(recordPageProblems(page))
  page.on('dialog', (d) => void d.accept())
  return page
}

async function logIn(page: Page, email: string, password = PASSWORD) {
  await page.goto(`${base}/dashboard/login`)
  const form = page.locator('form.auth-form')
  await form.getByLabel('E-mail address').fill(email)
  await form.getByLabel('Password').fill(password)
  await form.getByRole('button', { name: 'Log in' }).click()
  await page.getByRole('heading', { name: 'My servers' }).or(page.getByRole('heading', { name: 'List your first server' })).first().waitFor()
}

const api = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, init)
const row = (email: string) => admin.locator('tbody tr').filter({ has: admin.locator('td[data-label="E-mail address"]', { hasText: email }) })
const cellText = async (email: string, label: string) => ((await row(email).locator(`td[data-label="${label}"]`).textContent()) ?? '').trim()
const becomes = (read: () => Promise<string>, expected: string, what: string) => until(async () => (await read()) === expected, what)

async function viewOk(page: Page, name: string) {
  expect({ name, problems: await checkView(page, name) }).toEqual({ name, problems: {} })
  expect(external.flat()).toEqual([])
  expect(problems.flat()).toEqual([])
}

beforeAll(async () => {
  const [binary, peer] = await Promise.all([buildBinary(), javaServer({ online: 4, max: 20, motd: 'Admin test' })])
  game = peer
  const port = freePort()
  base = `http://127.0.0.1:${port}`
  dir = tempDir('votelist-admin-')
  writeFileSync(join(dir, 'votelist.toml'), [
    '[site]', `base_url = "${base}"`, 'name = "Admin Test List"',
    '[http]', 'host = "127.0.0.1"', `port = ${port}`,
    '[votes]', 'captcha = "off"',
    '[network]', 'allow_private_targets = true',
    '[stats]', 'ping_interval_seconds = 2',
  ].join('\n'))
  const site = spawnChild([binary, 'serve', '--config', join(dir, 'votelist.toml')], { cwd: dir })
  expect(await listeningUrl(site)).toBe(base)
  // The administrator and an owner with two servers, made through the API.
  const register = async (email: string) => {
    const r = await api('/api/v1/auth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) })
    return { cookie: r.headers.get('set-cookie')!.split(';')[0], user: ((await r.json()) as { user: { id: string } }).user }
  }
  await register('admin@example.com')
  const owner = await register('owner@example.com')
  ownerId = owner.user.id
  for (const name of ['Owner Realm', 'Owner Skyblock']) {
    const r = await api('/api/v1/me/servers', { method: 'POST', headers: { 'content-type': 'application/json', cookie: owner.cookie }, body: JSON.stringify({ name, host: '127.0.0.1', port: game.port }) })
    expect(r.status).toBe(201)
  }
  browser = await launchChromium()
  admin = await newPage()
  await logIn(admin, 'admin@example.com')
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await game?.close()
  killChildren()
  cleanupTemp()
})

describe('the administrator\'s dashboard in a browser', () => {
  test('disable an account: its session open in another browser is refused at once; its servers leave the list; enable it again', async () => {
    const owner = await newPage()
    await logIn(owner, 'owner@example.com')
    await owner.getByRole('heading', { name: 'My servers' }).waitFor()

    await admin.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Users' }).click()
    await admin.getByRole('heading', { name: 'Users' }).waitFor()
    expect(await cellText('owner@example.com', 'State')).toBe('Enabled')
    await viewOk(admin, 'admin-users')
    await row('owner@example.com').getByRole('button', { name: 'Disable owner@example.com' }).click()
    await becomes(() => cellText('owner@example.com', 'State'), 'Disabled', 'the account to show disabled')
    // The focus stays on the row's button, now the opposite action.
    expect(await admin.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Enable owner@example.com')

    expect((await owner.request.get(`${base}/api/v1/me`)).status()).toBe(401)
    await owner.getByRole('link', { name: 'Owner Realm' }).click()
    await owner.waitForURL(/\/dashboard\/login\?next=/)
    expect((await api('/api/v1/servers/owner-realm')).status).toBe(404)
    expect((await api('/serveur/owner-realm/voter')).status).toBe(404)
    const form = owner.locator('form.auth-form')
    await form.getByLabel('E-mail address').fill('owner@example.com')
    await form.getByLabel('Password').fill(PASSWORD)
    await form.getByRole('button', { name: 'Log in' }).click()
    // Under the e-mail address: that account is the one refused.
    await form.locator('.field-error').getByText('This account is disabled: ask the site\'s administrator').waitFor()

    await row('owner@example.com').getByRole('button', { name: 'Enable owner@example.com' }).click()
    await becomes(() => cellText('owner@example.com', 'State'), 'Enabled', 'the account to show enabled')
    expect((await api('/api/v1/servers/owner-realm')).status).toBe(200)
  }, STEP_MS)

  test('promote and demote: the administrator right follows at once', async () => {
    const owner = await newPage()
    await logIn(owner, 'owner@example.com')
    await row('owner@example.com').getByRole('button', { name: 'Make an administrator of owner@example.com' }).click()
    await becomes(() => cellText('owner@example.com', 'Role'), 'Administrator', 'the owner to be an administrator')
    expect((await owner.request.get(`${base}/api/v1/admin/users`)).status()).toBe(200)
    await row('owner@example.com').getByRole('button', { name: 'Remove the administrator right of owner@example.com' }).click()
    await becomes(() => cellText('owner@example.com', 'Role'), 'Owner', 'the owner to be an owner again')
    expect((await owner.request.get(`${base}/api/v1/admin/users`)).status()).toBe(403)
    // The last administrator cannot step down: the refusal shows next to the button.
    await row('admin@example.com').getByRole('button', { name: 'Remove the administrator right of admin@example.com' }).click()
    await row('admin@example.com').locator('.action-error').getByText(/^Removing the administrator right refused: admin@example\.com is the only administrator/).waitFor()
  }, STEP_MS)

  test('a reset link: copied from the dashboard, it sets a new password once and ends the owner\'s other sessions', async () => {
    const elsewhere = await newPage()
    await logIn(elsewhere, 'owner@example.com')
    await row('owner@example.com').getByRole('button', { name: 'Make a password reset link for owner@example.com' }).click()
    const card = admin.locator('section.reset-link')
    await card.getByRole('heading', { name: 'Reset link for owner@example.com' }).waitFor()
    const url = ((await card.locator('code').textContent()) ?? '').trim()
    expect(url).toMatch(new RegExp(`^${base.replaceAll('.', '\\.')}/dashboard/reset\\?token=[A-Za-z0-9_-]{43}$`))
    await viewOk(admin, 'admin-reset-link')

    const owner = await newPage()
    await owner.goto(url)
    await owner.getByRole('heading', { name: 'Choose a new password' }).waitFor()
    await viewOk(owner, 'reset-password')
    const form = owner.locator('form.auth-form')
    await form.getByLabel('New password').fill('a brand new password')
    await form.getByRole('button', { name: 'Set my new password' }).click()
    await owner.getByRole('heading', { name: 'My servers' }).waitFor()
    expect((await elsewhere.request.get(`${base}/api/v1/me`)).status()).toBe(401)

    const again = await newPage()
    await again.goto(url)
    const second = again.locator('form.auth-form')
    await second.getByLabel('New password').fill('someone else\'s password')
    await second.getByRole('button', { name: 'Set my new password' }).click()
    await second.locator('.form-error').getByText(/^This reset link is not valid/).waitFor()
    await logIn(again, 'owner@example.com', 'a brand new password')
  }, STEP_MS)

  test('the site: every scheduled task, the queue figures and the last ping round', async () => {
    await admin.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Site' }).click()
    await admin.getByRole('heading', { name: 'Site', exact: true }).waitFor()
    const work = admin.locator('section[aria-labelledby="work-title"]')
    for (const id of ['stats.ping', 'stats.retention', 'jobs.drain', 'keys.last-used', 'sessions.purge', 'captcha.purge', 'limits.sweep']) {
      expect(await work.locator(`tr[data-task="${id}"]`).count()).toBe(1)
    }
    expect(await work.locator('tr[data-task="sessions.purge"] td[data-label="Outcome"]').textContent()).toBe('OK')
    const queue = admin.locator('section[aria-labelledby="queue-title"]')
    expect(await queue.locator('[data-figures="deliveries"] .tile').allTextContents()).toEqual(['Deliveries pending0', 'Waiting for a retry0', 'Given up, last 24 h0'])
    // A ping round every 2 s: Refresh until one has run, then its figures show.
    await until(async () => {
      if (await queue.locator('[data-figures="ping-round"]').count()) return true
      await admin.getByRole('button', { name: 'Refresh' }).click()
      return false
    }, 'a ping round in the figures')
    expect(await queue.locator('[data-figures="ping-round"] .tile-value').first().textContent()).toBe('2')
    const config = admin.locator('section[aria-labelledby="config-title"]')
    expect(await config.locator('tr[data-key="site.name"] td[data-label="Value"]').textContent()).toBe('"Admin Test List"')
    expect(await config.locator('tr[data-key="site.name"] td[data-label="Source"]').textContent()).toBe('File')
    expect(await config.locator('tr[data-key="limits.keyed_per_minute"] td[data-label="Source"]').textContent()).toBe('Default')
    await viewOk(admin, 'admin-site')
  }, STEP_MS)

  test('a backup downloaded from the browser opens as a valid SQLite database with the site\'s data', async () => {
    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('link', { name: 'Download a backup' }).click()])
    expect(download.suggestedFilename()).toMatch(/^votelist-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.db$/)
    const file = join(tempDir(), 'backup.db')
    await download.saveAs(file)
    const db = new Database(file, { readonly: true })
    expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    expect(db.query('SELECT email FROM user ORDER BY email').all()).toEqual([{ email: 'admin@example.com' }, { email: 'owner@example.com' }])
    expect(db.query('SELECT name FROM server ORDER BY name').all()).toEqual([{ name: 'Owner Realm' }, { name: 'Owner Skyblock' }])
    db.close()
  }, STEP_MS)

  test('delete an account with its servers, after a confirmation', async () => {
    await admin.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Users' }).click()
    await admin.getByRole('heading', { name: 'Users' }).waitFor()
    expect(await cellText('owner@example.com', 'Servers')).toBe('2')
    // No Delete for the administrator's own row.
    expect(await row('admin@example.com').getByRole('button', { name: /^Delete/ }).count()).toBe(0)
    await row('owner@example.com').getByRole('button', { name: 'Delete owner@example.com' }).click()
    await row('owner@example.com').waitFor({ state: 'detached' })
    expect(await admin.locator('tbody tr').count()).toBe(1)
    expect((await api('/api/v1/servers/owner-realm')).status).toBe(404)
    expect((await api('/api/v1/servers/owner-skyblock')).status).toBe(404)
    expect((await api(`/api/v1/admin/users/${ownerId}`, { method: 'DELETE' })).status).toBe(401)
  }, STEP_MS)

  test('the audit log shows every change: who, what, when, on what', async () => {
    await admin.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Audit log' }).click()
    await admin.getByRole('heading', { name: 'Audit log' }).waitFor()
    const rows = admin.locator('tbody tr')
    const read = async (label: string) => (await rows.locator(`td[data-label="${label}"]`).allTextContents()).map((t) => t.trim())
    expect(await read('What')).toEqual([
      'Deleted the account', 'Downloaded a backup', 'Set a new password with a reset link', 'Made a password reset link',
      'Removed its administrator right', 'Made it an administrator', 'Enabled the account', 'Disabled the account',
    ])
    expect(await read('Who')).toEqual([
      'admin@example.com', 'admin@example.com', 'owner@example.com', 'admin@example.com',
      'admin@example.com', 'admin@example.com', 'admin@example.com', 'admin@example.com',
    ])
    expect((await read('Target')).filter((t) => t !== 'owner@example.com')).toEqual([expect.stringMatching(/^votelist-.*\.db$/)])
    expect((await read('Details'))[0]).toBe('with 2 servers')
    expect((await read('When')).every((t) => /\d{1,2} \w{3}, \d\d:\d\d:\d\d/.test(t))).toBe(true)
    await viewOk(admin, 'admin-audit')
  }, STEP_MS)

  test('an administrator who gives up their own right leaves the administrators\' pages at once', async () => {
    // Another account, from the command line (the site's sign-ups per address are spent by now).
    const deputy = await runChild([await buildBinary(), 'user', 'add', '--email', 'deputy@example.com', '--password', '-', '--config', join(dir, 'votelist.toml')], { cwd: dir, stdin: PASSWORD })
    expect(deputy.code).toBe(0)
    await admin.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Users' }).click()
    await admin.getByRole('heading', { name: 'Users' }).waitFor()
    await row('deputy@example.com').getByRole('button', { name: 'Make an administrator of deputy@example.com' }).click()
    await becomes(() => cellText('deputy@example.com', 'Role'), 'Administrator', 'the deputy to be an administrator')
    await row('admin@example.com').getByRole('button', { name: 'Remove the administrator right of admin@example.com' }).click()
    // The right is gone: My servers, a header without the administrators' links, and no refusal shown.
    await admin.waitForURL(`${base}/dashboard`)
    await admin.getByRole('heading', { level: 1, name: 'My servers' }).waitFor()
    const header = admin.getByRole('navigation', { name: 'Dashboard' })
    expect(await header.getByRole('link').allTextContents()).toEqual(['Ranking', 'My servers'])
    expect(await admin.locator('.action-error').allTextContents()).toEqual([])
    expect((await admin.request.get(`${base}/api/v1/admin/users`)).status()).toBe(403)
    await viewOk(admin, 'self-demoted')
  }, STEP_MS)
})
