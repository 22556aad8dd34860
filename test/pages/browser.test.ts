import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { browserForFile } from '../chromium.ts'
import { recordVote } from '../../src/votes/service.ts'
import { call, seedServer, testApp, testRuntime } from '../helpers.ts'
import { recordExternalRequests, recordPageProblems } from '../dashboard/page-checks.ts'
import { onFreeDualStackPort } from '../real-server.ts'
import { seedListing } from './listing-seed.ts'
import { motdFromChat, motdText } from '../../src/motd/format.ts'

// The pages in a real browser (Debian's Chromium through playwright-core): the self-hosted
// captcha widget solving the site's challenge on its own, the one-click vote, the dual-stack
// script fetching both tokens, the thank-you, the ranking on a phone's first screen, and
// axe-core's accessibility rules.

const browser = browserForFile()

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }

// axe-core (added as a devDependency for this): injected with page.evaluate, which the DevTools
// protocol runs whatever the page's CSP says; the serious and critical violations it finds.
const AXE = await Bun.file(require.resolve('axe-core/axe.min.js')).text()
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE)
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }))
  })
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.targets.join(', ')}`)
}

describe('in a browser', () => {
  test('the captcha solves itself; once it has, voting is one click; the thank-you replaces the form; both addresses are kept', async () => {
    const { port, rt, app } = await onFreeDualStackPort(async (port) => {
      const rt = testRuntime({
        site: { base_url: `http://localhost:${port}`, ipv4_url: `http://127.0.0.1:${port}`, ipv6_url: `http://[::1]:${port}` },
        votes: { captcha: 'pow', captcha_difficulty: 50 },
      }, Date.now())
      return { port, rt, app: (await testApp(rt)).listen({ hostname: '::', port }) }
    })
    const base = `http://localhost:${port}`
    const { server } = await seedServer(rt, { name: 'Emerald Valley' })
    const page = await browser().newPage({ timezoneId: 'Asia/Tokyo' })
    const problems = recordPageProblems(page)
    try {
      const answer = await page.goto(`${base}/serveur/${server.slug}/voter?pseudo=Steve`)
      expect(answer!.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
      expect(await page.inputValue('#pseudo')).toBe('Steve')
      // Nobody ticks anything: the widget reaches "verified" on its own.
      await page.locator('altcha-widget .altcha[data-state="verified"]').waitFor()
      await Promise.all([page.waitForURL(/\/voter\?vote=/), page.locator('form[data-vote-form] button[type="submit"]').click()])
      const thanks = page.locator('section.notice-success')
      expect(await thanks.locator('h2').textContent()).toBe('Thank you, Steve!')
      expect(await page.locator('form[data-vote-form]').count()).toBe(0)
      // UTC from the site, the visitor's own zone from the script (Tokyo is UTC+9).
      const next = new Date(Date.parse((await thanks.locator('time').getAttribute('datetime'))!))
      const tokyo = new Date(next.getTime() + 9 * 3600_000)
      expect(await thanks.locator('time').textContent()).toMatch(/ UTC$/)
      expect(await thanks.locator('[data-local-time]').textContent())
        .toContain(`${String(tokyo.getUTCHours()).padStart(2, '0')}:${String(tokyo.getUTCMinutes()).padStart(2, '0')} GMT+9 in your time zone`)
      await thanks.getByRole('link', { name: 'Back to Emerald Valley' }).click()
      await page.waitForURL(`${base}/serveur/${server.slug}`)
      const vote = rt.db.query('SELECT id FROM vote').get() as { id: string }
      expect(rt.db.query('SELECT ip_key AS k FROM vote_address WHERE vote_id = ? ORDER BY ip_key').all(vote.id))
        .toEqual([{ k: '4:127.0.0.1' }, { k: '6:0000000000000000' }])
      // The page's strict policy let the widget, its stylesheet and its worker run.
      expect(problems).toEqual([])
    } finally {
      await page.close()
      await app.stop()
    }
  }, 60_000)

  test('an "IPv6-only" name that also answers over IPv4: its token is left out and the vote goes through with the IPv4 one', async () => {
    // A misconfiguration an admin can make: site.ipv6_url's name with an A record too. Its token
    // then carries an IPv4 address, which the vote refuses in the IPv6 field.
    const { port, rt, app } = await onFreeDualStackPort(async (port) => {
      const rt = testRuntime({
        site: { base_url: `http://127.0.0.1:${port}`, ipv4_url: `http://127.0.0.2:${port}`, ipv6_url: `http://127.0.0.3:${port}` },
        votes: { captcha: 'off' },
      }, Date.now())
      return { port, rt, app: (await testApp(rt)).listen({ hostname: '::', port }) }
    })
    const { server } = await seedServer(rt, { name: 'Emerald Valley' })
    const page = await browser().newPage()
    const problems = recordPageProblems(page)
    const warnings: string[] = []
    page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()) })
    try {
      await page.goto(`http://127.0.0.1:${port}/serveur/${server.slug}/voter?pseudo=Steve`)
      await Promise.all([page.waitForURL(/\/voter\?vote=/), page.locator('form[data-vote-form] button[type="submit"]').click()])
      expect(await page.locator('section.notice-success h2').textContent()).toBe('Thank you, Steve!')
      // The connecting address (the IPv4 token's too, on loopback); nothing from the IPv6 field.
      expect(rt.db.query('SELECT ip_key AS k FROM vote_address').all()).toEqual([{ k: '4:127.0.0.1' }])
      expect(warnings.some((w) => w.includes(`http://127.0.0.3:${port} answered over IPv4, not IPv6`))).toBe(true)
      expect(problems).toEqual([])
    } finally {
      await page.close()
      await app.stop()
    }
  }, 60_000)

  test('Vote pressed before the captcha has solved is sent as soon as it has: still one click', async () => {
    const { port, rt, app } = await onFreeDualStackPort(async (port) => {
      const rt = testRuntime({ site: { base_url: `http://127.0.0.1:${port}` }, votes: { captcha: 'pow', captcha_difficulty: 50 } }, Date.now())
      return { port, rt, app: (await testApp(rt)).listen({ hostname: '::', port }) }
    })
    const { server } = await seedServer(rt, { name: 'Emerald Valley' })
    const page = await browser().newPage()
    const problems = recordPageProblems(page)
    try {
      // As soon as the page is parsed (its scripts have run; the widget has only started).
      await page.goto(`http://127.0.0.1:${port}/serveur/${server.slug}/voter?pseudo=Alex`, { waitUntil: 'domcontentloaded' })
      await Promise.all([page.waitForURL(/\/voter\?vote=/), page.locator('form[data-vote-form] button[type="submit"]').click()])
      expect(await page.locator('section.notice-success h2').textContent()).toBe('Thank you, Alex!')
      expect(rt.db.query('SELECT pseudo FROM vote').all()).toEqual([{ pseudo: 'Alex' }])
      expect(problems).toEqual([])
    } finally {
      await page.close()
      await app.stop()
    }
  }, 60_000)

  test('the ranking: the first server on a phone\'s first screen, each row with icon, MOTD, copy and Vote', async () => {
    const rt = testRuntime()
    const servers = await seedListing(rt, 12)
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
    const base = `http://127.0.0.1:${app.server!.port}`
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser().newContext({ viewport, permissions: ['clipboard-read', 'clipboard-write'] })
      const external = await recordExternalRequests(context)
      const page = await context.newPage()
      const problems = recordPageProblems(page)
      try {
        await page.goto(`${base}/`)
        const row = page.locator('ol.server-list > li').first()
        // The whole first row (banner, address and Vote included) on the first screen, unscrolled.
        const box = (await row.boundingBox())!
        expect({ viewport: viewport.width, top: box.y >= 0, bottom: box.y + box.height <= viewport.height })
          .toEqual({ viewport: viewport.width, top: true, bottom: true })
        for (const part of [row.locator('h2 a'), row.locator('.server-row-side a.button'), row.locator('.motd'), row.locator('img.server-icon'), row.locator('button[data-copy]')]) {
          expect(await part.isVisible()).toBe(true)
        }
        expect(await row.locator('h2 a').textContent()).toBe(servers[0].name)
        expect(await row.locator('code').textContent()).toBe('play.example.com')
        expect(await row.locator('.motd').textContent()).toBe('Gold Server 0 | play now')
        // decode() settles once the image has arrived (the banner is lazy) and rejects a broken one.
        const naturalWidth = (img: Element) => (img as HTMLImageElement).decode().then(() => (img as HTMLImageElement).naturalWidth)
        expect(await row.locator('img.server-icon').evaluate(naturalWidth)).toBe(64)
        expect(await row.locator('img.banner').evaluate(naturalWidth)).toBe(468)
        expect(await row.locator('.server-row-side a.button').getAttribute('href')).toBe(`/serveur/${servers[0].slug}/voter`)
        expect(await page.locator('main').textContent()).not.toContain('§')
        // The filters are folded away until asked for.
        expect(await page.locator('#search').isVisible()).toBe(false)
        await page.locator('details.filters-box > summary').click()
        expect(await page.locator('#search').isVisible()).toBe(true)
        // Copy: the address lands in the clipboard and the button says so.
        // The label changes once the clipboard write resolves (and for 3 s): wait for it.
        await row.locator('button[data-copy]').click()
        await row.locator('button[data-copy]', { hasText: 'Copied!' }).waitFor()
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('play.example.com')
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect({ viewport: viewport.width, overflow }).toEqual({ viewport: viewport.width, overflow: 0 })
        expect(problems).toEqual([])
        // Icons, banners and MOTD styles all come from the site itself.
        expect(external).toEqual([])
      } finally {
        await context.close()
      }
    }
    await app.stop()
  }, 60_000)

  test('axe-core finds no serious or critical violation on the ranking, the server page, the vote page, a refusal and the thank-you', async () => {
    const { port, rt, app } = await onFreeDualStackPort(async (port) => {
      const rt = testRuntime({ site: { base_url: `http://127.0.0.1:${port}` }, votes: { captcha: 'pow', captcha_difficulty: 50 } }, Date.now())
      return { port, rt, app: (await testApp(rt)).listen({ hostname: '::', port }) }
    })
    const servers = await seedListing(rt, 6)
    const base = `http://127.0.0.1:${port}`
    let round = 0
    for (const viewport of [PHONE, DESKTOP]) {
      for (const scheme of ['light', 'dark'] as const) {
        // A server of its own for each round, where this browser has not voted yet.
        const slug = servers[round++].slug
        const page = await browser().newPage({ viewport, colorScheme: scheme })
        try {
          for (const path of ['/', `/serveur/${slug}`, `/serveur/${slug}/voter`, `/serveur/${slug}/voter?pseudo=x`]) {
            await page.goto(`${base}${path}`)
            if (path.includes('voter')) await page.locator('altcha-widget .altcha[data-state="verified"]').waitFor()
            expect({ path, viewport: viewport.width, scheme, violations: await axeViolations(page) }).toEqual({ path, viewport: viewport.width, scheme, violations: [] })
          }
          // A refused vote: the error and the field it is about.
          await page.locator('#pseudo').fill('x!')
          await page.locator('#pseudo').evaluate((input) => input.removeAttribute('pattern'))
          await page.locator('#pseudo').evaluate((input) => input.removeAttribute('minlength'))
          await Promise.all([page.waitForLoadState('load'), page.locator('form[data-vote-form] button[type="submit"]').click()])
          await page.locator('#vote-error').waitFor()
          expect(await page.locator('#vote-error').textContent()).toContain('Your player name must be')
          expect(await axeViolations(page)).toEqual([])
          // Then a vote that counts: the thank-you in place of the form.
          await page.locator('#pseudo').fill('Steve')
          await page.locator('altcha-widget .altcha[data-state="verified"]').waitFor()
          await Promise.all([page.waitForURL(/\/voter\?vote=/), page.locator('form[data-vote-form] button[type="submit"]').click()])
          await page.locator('section.notice-success [data-local-time]').filter({ hasText: 'in your time zone' }).waitFor()
          expect({ scheme, viewport: viewport.width, thanks: await axeViolations(page) }).toEqual({ scheme, viewport: viewport.width, thanks: [] })
        } finally {
          await page.close()
        }
      }
    }
    await app.stop()
  }, 120_000)

  test('the thank-you and a refused vote fit a 360 px wide phone screen with the longest one-word name', async () => {
    const rt = testRuntime()
    const { server } = await seedServer(rt, { name: 'W'.repeat(64) })
    const voted = await recordVote(rt, server, 'Steve', ['198.51.100.7'])
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
    const base = `http://127.0.0.1:${app.server!.port}`
    const page = await browser().newPage({ viewport: { width: 360, height: 740 } })
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    try {
      await page.goto(`${base}/serveur/${server.slug}/voter?vote=${voted.vote.id}`)
      await page.locator('section.notice-success').waitFor()
      expect({ page: 'thank-you', overflow: await overflow() }).toEqual({ page: 'thank-you', overflow: 0 })
      // The refusal as the form's POST answers it (same pseudo, same address: too soon), drawn at
      // the vote page's address so that its stylesheet loads.
      const refused = await call(app, 'POST', `/serveur/${server.slug}/voter`, {
        body: 'pseudo=Steve', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'x-forwarded-for': '198.51.100.7' },
      })
      expect(refused.status).toBe(429)
      await page.goto(`${base}/serveur/${server.slug}/voter`)
      await page.setContent(await refused.text(), { waitUntil: 'load' })
      await page.locator('#vote-error').waitFor()
      expect({ page: 'refusal', overflow: await overflow() }).toEqual({ page: 'refusal', overflow: 0 })
    } finally {
      await page.close()
      await app.stop()
    }
  }, 60_000)

  test('the longest version a ping keeps fits a 360 px wide phone screen, on the ranking and the server page', async () => {
    const rt = testRuntime()
    const { server } = await seedServer(rt, { name: 'Proxy Network' })
    // A proxy's version line as servers send it, cut at the 64 characters a ping keeps.
    const version = 'Velocity 3.4.0-SNAPSHOT (git-8ee1a7d6-b436), Paper 1.21.4-build.9'.slice(0, 64)
    rt.db.run('INSERT INTO server_status (server_num, online, players_online, players_max, version, last_ping_at) VALUES (?, 1, 3, 100, ?, ?)',
      [server.num, version, rt.clock.now()])
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
    const page = await browser().newPage({ viewport: { width: 360, height: 740 } })
    try {
      for (const path of ['/', `/serveur/${server.slug}`]) {
        await page.goto(`http://127.0.0.1:${app.server!.port}${path}`)
        expect(await page.locator('main .pills .pill').filter({ hasText: 'Velocity' }).count()).toBe(1)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect({ path, overflow }).toEqual({ path, overflow: 0 })
      }
    } finally {
      await page.close()
      await app.stop()
    }
  }, 60_000)

  test('a MOTD with a very long first line takes two lines in its ranking row, as the game\'s server list draws it', async () => {
    const rt = testRuntime()
    const { server } = await seedServer(rt, { name: 'Chatty Network' })
    // A ping keeps up to 1,024 characters, all on one line if the server sends no line break.
    const motd = motdFromChat({ text: `§6${'Welcome to the best network with many modes '.repeat(20)}` })
    rt.db.run('INSERT INTO server_status (server_num, online, players_online, players_max, motd, motd_styled, last_ping_at) VALUES (?, 1, 3, 100, ?, ?, ?)',
      [server.num, motdText(motd), JSON.stringify(motd), rt.clock.now()])
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
    const page = await browser().newPage({ viewport: PHONE })
    try {
      await page.goto(`http://127.0.0.1:${app.server!.port}/`)
      const box = page.locator('ol.server-list > li .motd')
      const lines = await box.evaluate((el) => {
        const style = getComputedStyle(el)
        return Math.round((el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight))
      })
      expect(lines).toBe(2)
      // The row, Vote button included, still fits the phone's first screen.
      const row = (await page.locator('ol.server-list > li').first().boundingBox())!
      expect(row.y + row.height).toBeLessThanOrEqual(PHONE.height)
    } finally {
      await page.close()
      await app.stop()
    }
  }, 60_000)

  test('the name field lets through the spaces around a name that the vote trims (a phone keyboard adds one)', async () => {
    const rt = testRuntime()
    const java = (await seedServer(rt, { name: 'Java Realm' })).server
    const bedrock = (await seedServer(rt, { name: 'Bedrock Realm', edition: 'bedrock' })).server
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
    const page = await browser().newPage()
    const valid = async (slug: string, typed: string) => {
      await page.goto(`http://127.0.0.1:${app.server!.port}/serveur/${slug}/voter`)
      const field = page.locator('form[data-vote-form] input#pseudo')
      await field.fill(typed)
      return field.evaluate((el) => (el as HTMLInputElement).checkValidity())
    }
    try {
      expect(await valid(java.slug, 'Steve ')).toBe(true)
      expect(await valid(java.slug, ' Steve')).toBe(true)
      expect(await valid(bedrock.slug, '.Big Steve ')).toBe(true)
      // What the vote refuses stays refused before sending.
      expect(await valid(java.slug, 'Ste ve')).toBe(false)
      expect(await valid(java.slug, '   ')).toBe(false)
      expect(await valid(bedrock.slug, 'Bi  ')).toBe(false)
      expect(await valid(bedrock.slug, 'Big  ')).toBe(true)
    } finally {
      await page.close()
      await app.stop()
    }
  }, 60_000)

  test('every page fits a 360 px wide phone screen, and the copy button appears with JavaScript', async () => {
    const rt = testRuntime()
    const { server } = await seedServer(rt, { name: 'A server with a rather long name for a phone', description: 'x'.repeat(500), website: `https://example.com/${'a'.repeat(200)}` })
    // A name of one long word (64 characters at most): in the Vote button and where the page sits.
    const { server: oneWord } = await seedServer(rt, { name: 'SkyblockAdventuresNetworkOfficialServerWorldwide' })
    await seedListing(rt, 3)
    rt.store.servers.setVerified(server.id, rt.clock.now()) // with the verified mark by its name
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
    const page = await browser().newPage({ viewport: { width: 360, height: 740 } })
    const problems = recordPageProblems(page)
    try {
      for (const path of ['/', `/serveur/${server.slug}`, `/serveur/${server.slug}/voter`, '/serveur/nope', `/serveur/${oneWord.slug}`, `/serveur/${oneWord.slug}/voter`, '/api/docs']) {
        await page.goto(`http://127.0.0.1:${app.server!.port}${path}`)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect({ path, overflow }).toEqual({ path, overflow: 0 })
      }
      await page.goto(`http://127.0.0.1:${app.server!.port}/serveur/${server.slug}`)
      expect(await page.isVisible('button[data-copy="server-address"]')).toBe(true)
      expect(problems).toEqual([])
    } finally {
      await page.close()
      await app.stop()
    }
  }, 60_000)
})
