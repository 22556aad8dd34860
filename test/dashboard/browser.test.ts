import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { launchChromium } from '../chromium.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { freePort } from '../deliveries/setup.ts'
import { startVotifierReceiver, type VotifierReceiver } from '../push/votifier-receiver.ts'
import { buildBinary, killChildren, listeningUrl, spawnChild } from '../spawn.ts'
import { javaServer, type Peer } from '../stats/peers.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.ts'
import { until } from '../until.ts'
import { checkView, recordExternalRequests, recordPageProblems } from './page-checks.ts'

// The owner dashboard in Debian's Chromium (playwright-core), against the compiled binary started
// from an empty folder: first run, a server, a key, Votifier and its Test, a vote while the
// listener is down, its retry and redelivery, the webhook, key revocation and the admin pages.
// The tests run in order and share one site; each view is checked (fits 360 px, labels,
// contrast, no external request, no CSP violation) and photographed at 1280 and 375 px.

const SERVICE = 'DashTest'
// Each step drives the browser through several pages and checks every view at three widths.
const STEP_MS = 60_000
let base = ''
let browser: Browser
let context: BrowserContext
let page: Page
let external: string[] = []
let problems: string[] = []
let game: Peer
let votifier: VotifierReceiver | null = null
let webhook: WebhookReceiver | null = null
let votifierPort = 0
let votifierToken = ''
let apiKey = ''
let slug = ''

beforeAll(async () => {
  const [binary, peer] = await Promise.all([buildBinary(), javaServer({ online: 7, max: 20, motd: 'Dashboard test' })])
  game = peer
  // base_url must be the address the browser uses (the Origin rule), so the port is chosen first.
  const port = freePort()
  base = `http://127.0.0.1:${port}`
  const dir = tempDir('votelist-dashboard-')
  writeFileSync(join(dir, 'votelist.toml'), [
    '[site]', `base_url = "${base}"`, 'name = "Dashboard Test List"', `service_name = "${SERVICE}"`,
    '[http]', 'host = "127.0.0.1"', `port = ${port}`,
    '[votes]', 'captcha = "off"',
    '[network]', 'allow_private_targets = true',
    '[stats]', 'ping_interval_seconds = 2',
    // A first retry after 3 s (visible, then run, in the test), the others far away.
    '[deliveries]', 'retry_delays = ["3s", "10m", "10m", "10m", "10m", "10m", "10m"]',
  ].join('\n'))
  const site = spawnChild([binary, 'serve', '--config', join(dir, 'votelist.toml')], { cwd: dir })
  expect(await listeningUrl(site)).toBe(base)

  browser = await launchChromium()
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
  external = await recordExternalRequests(context)
  page = await context.newPage()
  problems = recordPageProblems(page)
  page.on('dialog', (d) => void d.accept())
}, 120_000)

afterAll(async () => {
  await browser?.close()
  votifier?.stop()
  webhook?.stop()
  await game?.close()
  killChildren()
  cleanupTemp()
})

// After every step: the views it showed passed their checks, nothing left the machine, no script
// error and no CSP violation happened.
async function viewOk(name: string) {
  expect({ name, problems: await checkView(page, name) }).toEqual({ name, problems: {} })
  expect(external).toEqual([])
  expect(problems).toEqual([])
}

const text = async (selector: string) => ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim()
const rowOf = (pseudo: string, attempt: string) => page.locator('tr[data-attempt-id]').filter({ hasText: pseudo }).filter({ hasText: attempt })
const keyed = (path: string, key: string) => fetch(`${base}${path}`, { headers: { 'X-Api-Key': key } })
// The error shown under the field labelled `label`. Scoped to that field: the dashboard also says
// every error in its aria-live announcer, so a page-wide text search finds it twice.
// `scope`: the form's section where one page has several forms with like labels.
async function fieldError(label: string, scope: Page | Locator = page): Promise<string> {
  const slot = scope.locator('.field').filter({ has: page.getByLabel(label) }).locator('.field-error')
  await slot.waitFor()
  return (await slot.textContent()) ?? ''
}
// Every error shown in a form, under a field or on top: placed by the API's error.field, one
// error shows in one place only.
const shownErrors = (scope: Locator) => scope.locator('.field-error:not([hidden]), .form-error:not([hidden])')
// Rows and results are drawn again as the site answers (an attempt is pending before it fails).
const textBecomes = (locator: Locator, expected: string, what: string) => until(async () => (await locator.textContent()) === expected, what)

describe('the owner dashboard in a browser', () => {
  test('the dashboard page: strict CSP, no inline script, nothing but the site\'s own files', async () => {
    const res = await fetch(`${base}/dashboard`)
    expect(res.headers.get('content-security-policy')).toStartWith("default-src 'self'")
    const html = await res.text()
    expect(html).toContain('<title>My servers · Dashboard Test List</title>')
    // No script runs inline: the one inline block is the catalog, JSON data the browser never runs.
    expect(html).not.toMatch(/<script(?![^>]*\b(src=|type="application\/json"))/)
    expect(html).toContain('<script type="application/json" id="vl-i18n">')
    expect(html).not.toMatch(/\sstyle=|<style/)
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
  }, STEP_MS)

  test('first run: the dashboard leads to creating the administrator account', async () => {
    await page.goto(`${base}/dashboard`)
    await page.waitForURL(`${base}/dashboard/setup`)
    expect(await text('h1')).toBe('Welcome to Dashboard Test List')
    await viewOk('first-run')

    await page.getByLabel('E-mail address').fill('admin@example.com')
    await page.getByLabel('Password').fill('short')
    await page.getByRole('button', { name: 'Create the administrator account' }).click()
    const password = page.getByLabel('Password')
    expect(await fieldError('Password')).toBe('Password must be 8 to 256 characters long')
    expect(await password.getAttribute('aria-invalid')).toBe('true')
    expect(await password.evaluate((el) => el === document.activeElement)).toBe(true)
    await viewOk('first-run-error')

    await password.fill('correct horse battery staple')
    await password.press('Enter')
    await page.waitForURL(`${base}/dashboard`)
    await page.getByRole('heading', { name: 'List your first server' }).waitFor()
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).textContent()).toContain('All servers')
    expect(await (await fetch(`${base}/api/v1/auth/status`)).json()).toEqual({ ok: true, setupNeeded: false, registrationOpen: true })
    await viewOk('my-servers-empty')
  }, STEP_MS)

  test('add a server: the API\'s errors show under their field; then the API and webhooks tab', async () => {
    await page.getByRole('link', { name: 'Add a server' }).first().click()
    await page.getByRole('heading', { name: 'Add a server' }).waitFor()
    await page.getByLabel('Server name').fill('Emerald Valley')
    await page.getByLabel('Address players join').fill('127.0.0.1')
    await page.getByLabel('Port').fill('70000')
    await page.getByLabel('Website').fill('ftp://files.example.com')
    await page.getByRole('button', { name: 'Add the server' }).click()
    expect(await fieldError('Port')).toBe('Port must be an integer from 1 to 65535')
    expect(await page.getByLabel('Port').getAttribute('aria-invalid')).toBe('true')
    await viewOk('add-server-error')

    await page.getByLabel('Port').fill(String(game.port))
    await page.getByRole('button', { name: 'Add the server' }).click()
    expect(await fieldError('Website')).toMatch(/^Website must be an http/)
    expect(await page.getByLabel('Port').getAttribute('aria-invalid')).toBeNull()
    await page.getByLabel('Website').fill('https://emerald.example.com')
    await page.getByLabel('survival').check()
    await page.getByRole('button', { name: 'Add the server' }).click()
    await page.waitForURL(/\/dashboard\/servers\/emerald-valley\/api$/)
    slug = 'emerald-valley'
    await page.getByRole('heading', { name: 'Verification API' }).waitFor()
    expect(await page.locator('.tabs a[aria-current="page"]').textContent()).toBe('API and webhooks')
    // After a navigation the focus is on the new page's heading, for keyboard and screen readers.
    await until(async () => page.evaluate(() => document.activeElement?.tagName === 'H1'), 'the focus on the heading')
  }, STEP_MS)

  test('an API key is shown once, copies, and works with the check endpoint', async () => {
    const keys = page.locator('#api-keys')
    await keys.getByLabel('Name of the new key').fill('x'.repeat(65))
    await keys.getByRole('button', { name: 'Create a key' }).click()
    expect(await fieldError('Name of the new key', keys)).toBe('Name must be at most 64 characters long')
    expect(await keys.getByLabel('Name of the new key').getAttribute('aria-invalid')).toBe('true')
    expect(await shownErrors(keys).count()).toBe(1)

    await page.getByLabel('Name of the new key').fill('lobby plugin')
    await page.getByRole('button', { name: 'Create a key' }).click()
    const shown = page.locator('.new-key code')
    await shown.waitFor()
    apiKey = (await shown.textContent())!
    expect(apiKey).toMatch(/^vlk_[A-Za-z0-9_-]{32}$/)
    await page.getByRole('button', { name: 'Copy the key' }).click()
    await page.locator('.new-key .copy-status').getByText('Copied').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey)

    const check = await keyed('/api/v1/votes/check?pseudo=Steve', apiKey)
    expect(check.status).toBe(200)
    expect(await check.json()).toEqual({ ok: true, hasVoted: false, pseudo: 'Steve', votedAt: null, nextVoteAt: null, claimed: false, window: 120 })
    // The ready-to-copy calls carry the new key and the site's address.
    const examples = await text('.examples')
    expect(examples).toContain(`curl -s "${base}/api/v1/votes/check?pseudo=Steve" -H "X-Api-Key: ${apiKey}"`)
    expect(examples).toContain(`curl -s -X POST "${base}/api/v1/votes/claim?pseudo=Steve" -H "X-Api-Key: ${apiKey}"`)
    const keyRow = page.locator('#api-keys tbody tr')
    expect(await keyRow.locator('td[data-label="Key"]').textContent()).toBe(`${apiKey.slice(0, 8)}…`)
    expect(await keyRow.locator('td[data-label="Name"]').textContent()).toBe('lobby plugin')
    expect(await keyRow.locator('td[data-label="Last used"]').textContent()).toBe('never')
    // The key is not shown again once the page is left.
    await page.reload()
    await page.getByRole('heading', { name: 'Verification API' }).waitFor()
    expect(await page.locator('.new-key code').count()).toBe(0)
    expect(await page.content()).not.toContain(apiKey)
  }, STEP_MS)

  test('a v2 Votifier target: the exact config line, and Test shows success', async () => {
    votifierPort = freePort()
    const section = page.locator('#votifier')
    await section.getByLabel('Listener host').fill('127.0.0.1')
    await section.getByLabel('Listener port').fill('0')
    await section.getByRole('button', { name: 'Save Votifier target' }).click()
    expect(await fieldError('Listener port', section)).toBe('Port must be an integer from 1 to 65535')
    expect(await section.getByLabel('Listener port').getAttribute('aria-invalid')).toBe('true')
    expect(await section.getByLabel('Listener host').getAttribute('aria-invalid')).toBeNull()
    expect(await shownErrors(section).count()).toBe(1)

    await section.getByLabel('Listener port').fill(String(votifierPort))
    expect(await section.getByLabel('v2 (recommended)').isChecked()).toBe(true)
    await section.getByRole('button', { name: 'Save Votifier target' }).click()
    const line = section.locator('.saved-target .copy-value')
    await line.waitFor()
    expect(await shownErrors(section).count()).toBe(0)
    const configLine = (await line.textContent())!
    expect(configLine).toMatch(new RegExp(`^${SERVICE}: [0-9a-v]{32}$`))
    votifierToken = configLine.slice(SERVICE.length + 2)
    const result = page.locator('.test-result[data-channel="votifier"]')

    // A listener still holding an old token: the Test says so, in place, in words.
    votifier = startVotifierReceiver({ tokens: { [SERVICE]: 'an-old-token-from-last-year' }, port: votifierPort })
    await page.getByRole('button', { name: 'Send a test vote' }).click()
    await result.waitFor()
    expect(await result.locator('.outcome').textContent()).toBe('Wrong token')
    expect(await result.locator('.test-error').textContent()).toContain('Signature is not valid (invalid token?) — wrong token')
    expect(await text('.test-summary')).toBe('The test vote failed:')
    votifier.stop()

    // The owner pastes the line into the listener's config and restarts it.
    votifier = startVotifierReceiver({ tokens: { [SERVICE]: votifierToken }, port: votifierPort })
    await page.getByRole('button', { name: 'Send a test vote' }).click()
    await textBecomes(result.locator('.outcome'), 'Delivered', 'the test to succeed')
    expect(await result.textContent()).toMatch(/^Delivered Votifier · (\d+ ms|\d+\.\d s)$/)
    expect(votifier.votes).toEqual([expect.objectContaining({ protocol: 'v2', serviceName: SERVICE, username: 'VotelistTest' })])
    await viewOk('api-and-webhooks')
  }, STEP_MS)

  test('a vote while the listener is down: the failed attempt and its retry; redeliver after the restart succeeds', async () => {
    votifier!.stop()
    const vote = await fetch(`${base}/serveur/${slug}/voter`, {
      method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }, body: 'pseudo=Steve',
    })
    expect(vote.status).toBe(201)

    await page.getByRole('link', { name: 'Deliveries' }).click()
    await page.getByRole('heading', { name: 'Delivery attempts' }).waitFor()
    const first = rowOf('Steve', '1 of 8')
    await textBecomes(first.locator('td[data-label="Outcome"]'), 'Failed', 'the first attempt to fail')
    expect(await first.locator('td[data-label="Error or status"]').textContent()).toStartWith('Connection refusedconnection refused by 127.0.0.1:')
    expect(await first.locator('td[data-label="Kind"]').textContent()).toBe('Vote')
    expect(await first.locator('td[data-label="Channel"]').textContent()).toBe('Votifier')
    // The next attempt is 3 s after the first (retry_delays[0]); shown with its time.
    expect(await first.locator('td[data-label="Next attempt"] time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/)
    await viewOk('deliveries-failed')

    // The tab refreshes by itself: the retry shows up without a reload, failing again, with the
    // following attempt 10 minutes later.
    const second = rowOf('Steve', '2 of 8')
    await textBecomes(second.locator('td[data-label="Outcome"]'), 'Failed', 'the retry to fail')
    expect(await second.locator('td[data-label="Next attempt"] .relative').textContent()).toMatch(/^in (9|10) min$/)

    votifier = startVotifierReceiver({ tokens: { [SERVICE]: votifierToken }, port: votifierPort })
    await second.getByRole('button', { name: 'Redeliver the Votifier delivery for Steve' }).click()
    const redelivered = page.locator('tr[data-attempt-id]').filter({ hasText: 'redelivery · #3 overall' })
    await textBecomes(redelivered.locator('td[data-label="Outcome"]'), 'Delivered', 'the redelivery to succeed')
    expect(await redelivered.locator('td[data-label="Attempt"]').textContent()).toBe('1 of 8redelivery · #3 overall')
    await votifier.waitVotes(1)
    expect(votifier.votes.map((v) => v.username)).toEqual(['Steve'])
    await viewOk('deliveries')

    // Filters: by outcome, by channel.
    await page.getByLabel('Outcome').selectOption('succeeded')
    await until(async () => (await page.locator('tr[data-attempt-id]').count()) === 2, 'the succeeded attempts only')
    expect(await page.locator('tr[data-attempt-id]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.status))).toEqual(['succeeded', 'succeeded'])
    await page.getByLabel('Channel').selectOption('webhook')
    await page.getByText('No attempt matches these filters.').waitFor()
    await page.getByLabel('Outcome').selectOption('')
    await page.getByLabel('Channel').selectOption('')
    await until(async () => (await page.locator('tr[data-attempt-id]').count()) === 5, 'every attempt again')
  }, STEP_MS)

  test('webhook: the revealed secret signs the deliveries; rotating it changes the signature', async () => {
    webhook = startWebhookReceiver('not-the-site-secret')
    await page.getByRole('link', { name: 'API and webhooks' }).click()
    const section = page.locator('#webhook')
    await section.getByLabel('Webhook URL').fill('not a url')
    await section.getByRole('button', { name: 'Save webhook' }).click()
    expect(await fieldError('Webhook URL', section)).toBe('Url must be an absolute https:// URL')
    expect(await section.getByLabel('Webhook URL').getAttribute('aria-invalid')).toBe('true')
    expect(await shownErrors(section).count()).toBe(1)
    await section.getByLabel('Webhook URL').fill(webhook.url())
    await section.getByRole('button', { name: 'Save webhook' }).click()
    const reveal = section.getByRole('button', { name: 'Reveal' })
    await reveal.waitFor()
    expect(await text('#webhook .secret-value')).toMatch(/^•+$/)
    await reveal.click()
    expect(await section.getByRole('button', { name: 'Hide' }).getAttribute('aria-pressed')).toBe('true')
    const secret = await text('#webhook .secret-value')
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)

    const signed = (i: number, key: string) => {
      const hook = webhook!.received[i]
      return hook.headers['x-tsm-signature'] === `sha256=${createHmac('sha256', key).update(`${hook.headers['x-tsm-timestamp']}.${hook.body}`).digest('hex')}`
    }
    await page.getByRole('button', { name: 'Send a test vote' }).click()
    await page.locator('.test-result[data-channel="webhook"]').waitFor()
    expect(await text('.test-summary')).toBe('Every channel received the test vote:')
    await webhook.waitFor(1)
    expect(webhook.received[0].json.event).toBe('test')
    expect(signed(0, secret)).toBe(true)
    await viewOk('webhook')

    await section.getByRole('button', { name: 'Rotate' }).click()
    await section.getByRole('button', { name: 'Reveal' }).click()
    await until(async () => (await text('#webhook .secret-value')) !== secret && (await text('#webhook .secret-value')).startsWith('whsec_'), 'the new secret')
    const rotated = await text('#webhook .secret-value')
    await page.getByRole('button', { name: 'Send a test vote' }).click()
    await webhook.waitFor(2)
    expect([signed(1, rotated), signed(1, secret)]).toEqual([true, false])
  }, STEP_MS)

  test('the badge and the vote link to copy', async () => {
    const badge = page.locator('#badge')
    expect(await badge.locator('.code-block').textContent())
      .toBe(`<a href="${base}/serveur/${slug}/voter"><img src="${base}/api/v1/servers/${slug}/badge.svg" alt="Vote for Emerald Valley"></a>`)
    await until(() => badge.locator('img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the badge preview to load')
    await badge.getByRole('button', { name: 'Copy the link' }).click()
    // The copy is done (and the clipboard holds the link) once the status says so.
    await badge.locator('.copy-field .copy-status').getByText('Copied').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/serveur/${slug}/voter?pseudo=`)
  }, STEP_MS)

  test('revoking a key: it is refused at once', async () => {
    await page.getByRole('button', { name: `Revoke the key ${apiKey.slice(0, 8)}… (lobby plugin)` }).click()
    await page.locator('#api-keys').getByText('No API key yet.').waitFor()
    const res = await keyed('/api/v1/votes/check?pseudo=Steve', apiKey)
    expect(res.status).toBe(401)
    expect((await res.json()).error.code).toBe('INVALID_KEY')

    // A key revoked while it is still on screen (made by mistake): it is shown no more, nor used in the calls.
    const keys = page.locator('#api-keys')
    await keys.getByLabel('Name of the new key').fill('mistake')
    await keys.getByRole('button', { name: 'Create a key' }).click()
    const mistake = (await keys.locator('.new-key code').textContent())!
    expect(await text('.examples')).toContain(mistake)
    await keys.getByRole('button', { name: `Revoke the key ${mistake.slice(0, 8)}… (mistake)` }).click()
    await keys.getByText('No API key yet.').waitFor()
    expect(await keys.locator('.new-key').textContent()).toBe('')
    expect(await text('.examples')).not.toContain(mistake)
    expect(await text('.examples')).toContain('-H "X-Api-Key: YOUR_API_KEY"')
  }, STEP_MS)

  test('My servers: rank, votes this month and players online', async () => {
    await page.getByRole('link', { name: 'My servers' }).first().click()
    const row = page.locator('tbody tr').filter({ hasText: 'Emerald Valley' })
    await row.waitFor()
    // The site pings the game server every 2 s; the list shows the last ping.
    await until(async () => {
      await page.reload()
      return (await row.locator('td[data-label="Players online"]').textContent()) === '7 / 20'
    }, 'the first ping')
    expect(await row.locator('td[data-label="Rank this month"]').textContent()).toBe('#1')
    expect(await row.locator('td[data-label="Votes this month"]').textContent()).toBe('1')
    await viewOk('my-servers')
    await page.getByRole('link', { name: 'Emerald Valley' }).click()
    await page.getByRole('heading', { name: 'Listing' }).waitFor()
    await viewOk('server-overview')
  }, STEP_MS)

  test('log out, sign up as another owner, log in again as the admin', async () => {
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL(`${base}/dashboard/login`)
    expect((await page.request.get(`${base}/api/v1/me`)).status()).toBe(401)
    await viewOk('log-in')
    await page.getByRole('link', { name: 'Create one' }).click()
    await page.getByRole('heading', { name: 'Create an account' }).waitFor()
    await page.getByLabel('E-mail address').fill('ADMIN@example.com')
    await page.getByLabel('Password').fill('another good password')
    await page.getByRole('button', { name: 'Create my account' }).click()
    expect(await fieldError('E-mail address')).toStartWith('This e-mail address is already registered')
    await viewOk('sign-up-error')
    await page.getByLabel('E-mail address').fill('owner@example.com')
    await page.getByRole('button', { name: 'Create my account' }).click()
    await page.getByRole('heading', { name: 'List your first server' }).waitFor()
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).textContent()).not.toContain('All servers')
    await page.getByRole('link', { name: 'Add a server' }).first().click()
    await page.getByLabel('Server name').fill('Second Server')
    await page.getByLabel('Address players join').fill('127.0.0.1')
    // A slug already taken (409 CONFLICT with error.field "slug") lands under its own field.
    await page.getByLabel('Address of its page').fill(slug)
    await page.getByRole('button', { name: 'Add the server' }).click()
    expect(await fieldError('Address of its page')).toBe(`The slug "${slug}" is taken`)
    expect(await shownErrors(page.locator('form.server-form')).count()).toBe(1)
    await page.getByLabel('Address of its page').fill('')
    await page.getByRole('button', { name: 'Add the server' }).click()
    await page.waitForURL(/\/dashboard\/servers\/second-server\/api$/)
    await page.goto(`${base}/dashboard/admin/users`)
    await page.getByRole('heading', { name: 'Administrators only' }).waitFor()

    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL(`${base}/dashboard/login`)
    // The keyboard alone logs in.
    await page.getByLabel('E-mail address').focus()
    await page.keyboard.type('admin@example.com')
    await page.keyboard.press('Tab')
    await page.keyboard.type('correct horse battery staple')
    await page.keyboard.press('Enter')
    await page.waitForURL(`${base}/dashboard`)
  }, STEP_MS)

  test('admin pages: every user; every server, hidden, shown and deleted', async () => {
    await page.getByRole('link', { name: 'Users' }).click()
    await page.getByRole('heading', { name: 'Users' }).waitFor()
    expect(await page.locator('tbody tr').allTextContents()).toEqual([
      expect.stringMatching(/^admin@example\.com \(you\)Administrator1/),
      expect.stringMatching(/^owner@example\.comOwner1/),
    ])
    await viewOk('admin-users')

    await page.getByRole('link', { name: 'All servers' }).click()
    const second = page.locator('tr[data-slug="second-server"]')
    await second.waitFor()
    expect(await second.locator('td[data-label="Owner"]').textContent()).toBe('owner@example.com')
    await second.getByRole('button', { name: 'Hide Second Server' }).click()
    await textBecomes(second.locator('td[data-label="State"]'), 'Hidden', 'the server to be hidden')
    expect((await fetch(`${base}/api/v1/servers/second-server`)).status).toBe(404)
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Show Second Server')
    await viewOk('admin-servers')
    await second.getByRole('button', { name: 'Show Second Server' }).click()
    await textBecomes(second.locator('td[data-label="State"]'), 'Listed', 'the server to be listed')
    expect((await fetch(`${base}/api/v1/servers/second-server`)).status).toBe(200)
    await second.getByRole('button', { name: 'Delete Second Server' }).click()
    await second.waitFor({ state: 'detached' })
    expect((await fetch(`${base}/api/v1/servers/second-server`)).status).toBe(404)
    expect(await page.locator('tbody tr').count()).toBe(1)
  }, STEP_MS)
})
