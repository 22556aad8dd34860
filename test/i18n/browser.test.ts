import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chromium, type Browser, type Page } from 'playwright-core'
import type { App } from '../../src/app.ts'
import { HOUR } from '../../src/stats/repo.ts'
import { recordRound } from '../../src/stats/round.ts'
import { recordPageProblems } from '../dashboard/page-checks.ts'
import { freePort } from '../deliveries/setup.ts'
import { cleanupTemp, seedServer, testApp, testRuntime, type TestRuntime } from '../helpers.ts'

// A site whose language is French (site.language = "fr"), in a real browser: the ranking, the
// server page with its chart, the vote page with its captcha, and the dashboard, in French, with
// French dates; then the switcher, and a browser that asks for English.

const FIVE = 300_000
let rt: TestRuntime
let app: App
let base = ''
let browser: Browser
let slug = ''

beforeAll(async () => {
  const port = freePort()
  base = `http://127.0.0.1:${port}`
  rt = testRuntime({
    site: { language: 'fr', base_url: base, name: 'Liste de test' },
    votes: { captcha: 'pow', captcha_difficulty: 50 },
  }, Date.now())
  const { server } = await seedServer(rt, { name: 'Vallée Émeraude' })
  slug = server.slug
  const targets = rt.store.servers.pingTargets()
  const now = rt.clock.now()
  await rt.store.write(function* (tx) {
    for (let t = now - 24 * HOUR - ((now - 24 * HOUR) % FIVE); t <= now; t += FIVE) {
      yield* recordRound(tx, t, targets, targets.map((target) => ({
        serverNum: target.num, serverId: target.id, at: t,
        status: { online: true, playersOnline: 1200 + ((t / FIVE) % 40), playersMax: 5000, version: null, motd: null, styledMotd: null, favicon: null, latencyMs: null, error: null },
      })))
    }
  })
  app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port })
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  cleanupTemp()
})

const NARROW_SPACE = /[\u00a0\u202f]/

// Logs in through the French dashboard; the first account (seedServer's owner) is the administrator.
async function logInInFrench(page: Page, email = 'owner@example.com', password = 'correct horse battery') {
  await page.goto(`${base}/dashboard/login`)
  const form = page.locator('form.auth-form')
  await form.getByLabel('Adresse e-mail').fill(email)
  await form.getByLabel('Mot de passe').fill(password)
  await form.getByRole('button', { name: 'Se connecter' }).click()
  await page.waitForURL(`${base}/dashboard`)
}

// A French browser signed in through logInInFrench: `check` runs on its page, which must log no
// page problem; the browser's context is closed after, whatever happens.
async function signedInInFrench(check: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ locale: 'fr-FR' })
  const page = await context.newPage()
  const problems = recordPageProblems(page)
  try {
    await logInInFrench(page)
    await check(page)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
}

describe('site.language = "fr" in a browser', () => {
  test('the ranking, the server page and its chart, in French with French dates and numbers', async () => {
    // A browser asking for a language the site does not have: the site's own.
    const context = await browser.newContext({ locale: 'de-DE', timezoneId: 'Europe/Paris', viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    try {
      await page.goto(`${base}/`)
      expect(await page.getAttribute('html', 'lang')).toBe('fr')
      expect(await page.textContent('main h1')).toBe('Classement des serveurs Minecraft')
      const month = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(rt.clock.now())
      expect(await page.textContent('main > p.muted')).toContain(`en ${month} (UTC)`)
      await page.locator('#global-players .vl-global-line', { hasText: 'joueurs connectés en ce moment' }).waitFor()
      // 1 2xx players: the thousands are set apart with a no-break space, as French does.
      expect(await page.textContent('#global-players .vl-global-now')).toMatch(new RegExp(`^1${NARROW_SPACE.source}2\\d\\d$`))

      await page.goto(`${base}/serveur/${slug}`)
      const history = page.locator('#history')
      await history.locator('.vl-chart canvas').first().waitFor()
      expect(await history.locator('.vl-figure dt').allTextContents()).toEqual(['Disponibilité', 'Pic', 'Moyenne'])
      expect(await history.locator('.vl-range').allTextContents()).toEqual(['24 h', '7 j', '30 j', '90 j', '1 an', 'tout'])
      await history.locator('.vl-figure dd', { hasText: '%' }).waitFor()
      expect(await history.locator('.vl-figure dd').first().textContent()).toMatch(new RegExp(`^100${NARROW_SPACE.source}%$`))
      // The chart's time, as the pages write it, in the visitor's own zone: hovering the chart
      // shows the moment under the pointer.
      await history.locator('.u-over').scrollIntoViewIfNeeded()
      const box = (await history.locator('.u-over').boundingBox())!
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
      await page.mouse.move(box.x + box.width / 2 + 5, box.y + box.height / 2)
      const legendTime = history.locator('.u-legend .u-series').first().locator('.u-value')
      await legendTime.filter({ hasText: ' à ' }).waitFor()
      expect(await legendTime.textContent()).toMatch(/^\d{1,2} (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4} à \d\d:\d\d UTC[+−-]\d+$/)
      expect(await history.locator('.u-legend .u-series').nth(1).locator('.u-label').textContent()).toBe('Moyenne')
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  test('the vote page in French: the captcha widget, the vote, the thank-you and the next vote in the visitor\'s zone', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Asia/Tokyo' })
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    try {
      await page.goto(`${base}/serveur/${slug}/voter?pseudo=Steve`)
      expect(await page.textContent('label[for="pseudo"]')).toBe('Votre pseudo')
      await page.locator('altcha-widget .altcha[data-state="verified"]').waitFor()
      expect(await page.locator('altcha-widget').textContent()).toContain('Vérifié')
      await Promise.all([page.waitForURL(/\/voter\?vote=/), page.getByRole('button', { name: 'Voter', exact: true }).click()])
      const thanks = page.locator('section.notice-success')
      expect(await thanks.locator('h2').textContent()).toBe('Merci, Steve\u202f!')
      expect(await thanks.textContent()).toMatch(/Vous pourrez revoter le \d{1,2} \S+ \d{4} à \d\d:\d\d UTC/)
      expect(await thanks.locator('[data-local-time]').textContent()).toMatch(/ à \d\d:\d\d UTC\+9 dans votre fuseau horaire\)$/)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  // The browser checks the name before sending it (required, pattern); its own message would be in
  // the browser's language (this Chromium's is English) and as vague as "Please match the requested
  // format". The page says its own rule, in its language.
  test('the vote form\'s own check of the name speaks the page\'s language, not the browser\'s', async () => {
    const context = await browser.newContext({ locale: 'fr-FR' })
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    try {
      await page.goto(`${base}/serveur/${slug}/voter`)
      await page.locator('altcha-widget .altcha[data-state="verified"]').waitFor()
      const pseudo = page.locator('#pseudo')
      const vote = page.getByRole('button', { name: 'Voter', exact: true })
      await vote.click()
      expect(await pseudo.evaluate((el: HTMLInputElement) => el.validationMessage)).toBe('Entrez votre pseudo pour voter.')
      await pseudo.pressSequentially('a-b')
      await vote.click()
      expect(await pseudo.evaluate((el: HTMLInputElement) => el.validationMessage)).toBe('Votre pseudo doit faire de 3 à 16 caractères\u00a0: lettres, chiffres ou tirets bas (_).')
      await pseudo.fill('Steve_2')
      expect(await pseudo.evaluate((el: HTMLInputElement) => el.checkValidity())).toBe(true)
      expect(new URL(page.url()).pathname).toBe(`/serveur/${slug}/voter`)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  test('the dashboard in French, its errors too; the switcher turns it to English; an English browser reads English', async () => {
    const context = await browser.newContext({ locale: 'fr-FR' })
    const page = await context.newPage()
    const problems = recordPageProblems(page)
    try {
      await page.goto(`${base}/dashboard`)
      await page.waitForURL(`${base}/dashboard/login`)
      expect(await page.getAttribute('html', 'lang')).toBe('fr')
      expect(await page.textContent('main h1')).toBe('Connexion')
      await page.getByRole('link', { name: 'Créez-en un' }).click()
      await page.locator('main h1', { hasText: 'Créer un compte' }).waitFor()
      const form = page.locator('form.auth-form')
      await form.getByLabel('Adresse e-mail').fill('alice@example.com')
      await form.getByLabel('Mot de passe').fill('court')
      await form.getByRole('button', { name: 'Créer mon compte' }).click()
      const passwordField = form.locator('.field', { has: page.getByLabel('Mot de passe') })
      await passwordField.locator('.field-error', { hasText: 'Le mot de passe doit faire de 8 à 256 caractères' }).waitFor()
      await form.getByLabel('Mot de passe').fill('un mot de passe solide')
      await form.getByRole('button', { name: 'Créer mon compte' }).click()
      await page.waitForURL(`${base}/dashboard`)
      await page.locator('main h1', { hasText: 'Mes serveurs' }).waitFor()
      expect(await page.locator('.empty-state h2').textContent()).toBe('Ajoutez votre premier serveur')

      await page.locator('.empty-state').getByRole('link', { name: 'Ajouter un serveur' }).click()
      await page.locator('main h1', { hasText: 'Ajouter un serveur' }).waitFor()
      await page.getByRole('button', { name: 'Ajouter le serveur' }).click()
      const nameField = page.locator('.field', { has: page.getByLabel('Nom du serveur') })
      await nameField.locator('.field-error', { hasText: 'Le nom fait de 1 à 64 caractères, en texte simple' }).waitFor()
      // A control character pasted into the name: the French says why, not only the length.
      await page.getByLabel('Nom du serveur').fill('Royaume\u0007')
      await page.getByLabel('Adresse que les joueurs rejoignent').fill('127.0.0.1')
      await page.getByRole('button', { name: 'Ajouter le serveur' }).click()
      await nameField.locator('.field-error', { hasText: 'sans caractère de contrôle ni caractère invalide.' }).waitFor()

      // The switcher: a link that remembers the choice, back to the same page.
      await Promise.all([page.waitForURL(`${base}/dashboard/servers/new`), page.locator('.lang-switch').getByRole('link', { name: 'English' }).click()])
      await page.locator('main h1', { hasText: 'Add a server' }).waitFor()
      expect(await page.getAttribute('html', 'lang')).toBe('en')
      await page.goto(`${base}/`)
      expect(await page.textContent('main h1')).toBe('Minecraft server ranking')
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }

    const english = await browser.newContext({ locale: 'en-US' })
    try {
      const page = await english.newPage()
      await page.goto(`${base}/serveur/${slug}/voter`)
      expect(await page.getAttribute('html', 'lang')).toBe('en')
      expect(await page.textContent('label[for="pseudo"]')).toBe('Your player name')
    } finally {
      await english.close()
    }
  }, 90_000)

  test('the audit log names, in French, the fields an administrator changed on another account\'s server', async () => {
    const { server: other } = await seedServer(rt, { name: 'Royaume de Bob' }, 'bob@example.com')
    await signedInInFrench(async (page) => {
      await page.goto(`${base}/dashboard/servers/${other.slug}`)
      const form = page.locator('form.server-form')
      await form.locator('[name="version"]').fill('1.21')
      await form.locator('[name="description"]').fill('Un serveur modifié par l’administrateur')
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'PATCH' && r.ok()),
        form.getByRole('button', { name: 'Enregistrer les modifications' }).click(),
      ])
      await page.goto(`${base}/dashboard/admin/audit`)
      const edit = page.locator('tbody tr').filter({ has: page.locator('td[data-label="Cible"]', { hasText: 'Royaume de Bob' }) })
      expect((await edit.locator('td[data-label="Quoi"]').textContent())?.trim()).toBe('A modifié le serveur')
      expect((await edit.locator('td[data-label="Détails"]').textContent())?.trim()).toBe('Modifié\u00a0: Version, Description')
    })
  }, 60_000)

  test('Test pressed before any channel is set up says so in French, not in the API\'s English', async () => {
    const { server: bare } = await seedServer(rt, { name: 'Sans canal' })
    await signedInInFrench(async (page) => {
      await page.goto(`${base}/dashboard/servers/${bare.slug}/api`)
      const panel = page.locator('.test-panel')
      await panel.getByRole('button', { name: 'Envoyer un vote de test' }).click()
      const refusal = panel.locator('.test-results .notice-error')
      await refusal.waitFor()
      expect(await refusal.textContent()).toBe('Rien à tester\u00a0: configurez d’abord une cible Votifier, un webhook ou un webhook Discord.')
    })
  }, 60_000)

  test('a reserved page address is refused in French with the reason, not with a rule the address already meets', async () => {
    await signedInInFrench(async (page) => {
      await page.goto(`${base}/dashboard/servers/new`)
      const form = page.locator('form.server-form')
      await form.getByLabel('Nom du serveur').fill('Administration')
      await form.getByLabel('Adresse que les joueurs rejoignent').fill('play.example.com')
      await form.locator('[name="slug"]').fill('admin')
      await form.getByRole('button', { name: 'Ajouter le serveur' }).click()
      const slugError = form.locator('.field', { has: page.locator('[name="slug"]') }).locator('.field-error')
      await slugError.filter({ hasText: /\S/ }).waitFor()
      expect(await slugError.textContent()).toContain('mots réservés new, edit, admin, api, dashboard, voter, static, assets')
      expect(await form.locator('[name="slug"]').inputValue()).toBe('admin')
    })
  }, 60_000)

  test('an address that is no Discord webhook is refused in French with what Discord\'s address looks like', async () => {
    const { server: own } = await seedServer(rt, { name: 'Salon Discord' })
    await signedInInFrench(async (page) => {
      await page.goto(`${base}/dashboard/servers/${own.slug}/api`)
      const discord = page.locator('#discord')
      // An https address, complete, without user name or fragment: only its being Discord's is wrong.
      await discord.getByLabel('URL du webhook Discord').fill('https://example.com/votelist-hook')
      await discord.getByRole('button', { name: 'Enregistrer le webhook Discord' }).click()
      const error = discord.locator('.field', { has: page.getByLabel('URL du webhook Discord') }).locator('.field-error')
      await error.filter({ hasText: /\S/ }).waitFor()
      expect(await error.textContent()).toContain('qui commence par https://discord.com/api/webhooks/')
      expect(await discord.getByLabel('URL du webhook Discord').inputValue()).toBe('https://example.com/votelist-hook')
    })
  }, 60_000)

  // A refusal the API names (error.reason) is worded in French, its English message kept as the detail.
  test('Verify on a server that does not answer is refused in French, with the ping\'s own words as the detail', async () => {
    // Listed at a public name, then moved to a loopback address the site refuses to ping (this site
    // has network.allow_private_targets off): the ping fails without any packet sent.
    const silent = 25565
    const { server: unreachable } = await seedServer(rt, { name: 'Serveur muet', host: 'play.example.com' })
    rt.db.run('UPDATE server SET host = ?, port = ? WHERE id = ?', ['127.0.0.1', silent, unreachable.id])
    await signedInInFrench(async (page) => {
      await page.goto(`${base}/dashboard/servers/${unreachable.slug}`)
      await page.getByRole('button', { name: 'Vérifier', exact: true }).click()
      const refusal = page.locator('.verify-result .notice-error')
      await refusal.waitFor()
      expect(await refusal.textContent()).toStartWith('Vérification impossible\u00a0: le MOTD du serveur n’a pas pu être lu. Vérifiez que le serveur est en marche et '
        + `joignable à cette adresse, puis vérifiez à nouveau. Détail\u00a0: Could not read the MOTD of 127.0.0.1:${silent}: `)
    })
  }, 60_000)

  test('the last administrator stepping down is refused in French, beside the button', async () => {
    await signedInInFrench(async (page) => {
      await page.goto(`${base}/dashboard/admin/users`)
      const own = page.locator('tbody tr').filter({ has: page.locator('td[data-label="Adresse e-mail"]', { hasText: 'owner@example.com' }) })
      await own.getByRole('button', { name: 'Retirer le droit d’administrateur de owner@example.com' }).click()
      const refusal = own.locator('.action-error').filter({ hasText: /\S/ })
      await refusal.waitFor()
      expect(await refusal.textContent()).toBe('Refusé\u00a0: c’est le seul administrateur qui peut se connecter, et le site doit en garder un. Nommez d’abord un autre compte administrateur.')
    })
  }, 60_000)
})
