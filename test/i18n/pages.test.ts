import { afterAll, describe, expect, test } from 'bun:test'
import { translatorFor } from '../../src/i18n/translate.ts'
import { call, cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'

// A French site (site.language = "fr") as visitors meet it: its pages, the vote page, errors,
// the badge and the dashboard's page in French; the same site in English for a browser that asks
// for English, for ?lang=en and after the switcher is used. Times: 22 November 2026, 12:00 UTC.

afterAll(cleanupTemp)

const NOON = Date.UTC(2026, 10, 22, 12, 0, 0)
const NBSP = '\u00a0'
const NNBSP = '\u202f'

async function frenchSite() {
  const rt = testRuntime({ site: { language: 'fr', base_url: 'https://liste.example.org' }, http: { trust_proxy: true } }, NOON)
  const { server } = await seedServer(rt, { name: 'Vallée Émeraude' })
  const app = await testApp(rt)
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const r = await call(app, 'GET', path, { headers: { accept: 'text/html', ...headers } })
    return { status: r.status, headers: r.headers, body: await r.text() }
  }
  return { rt, server, app, get }
}

describe('a French site', () => {
  test('the home page is <html lang="fr">, in French, with the month in French, and says what it varies on', async () => {
    const { get } = await frenchSite()
    const page = await get('/')
    expect(page.status).toBe(200)
    expect(page.body).toStartWith('<!doctype html>\n<html lang="fr">')
    expect(page.headers.get('content-language')).toBe('fr')
    expect(page.headers.get('vary')).toBe('Accept-Language, Cookie')
    expect(page.body).toContain('<h1>Classement des serveurs Minecraft</h1>')
    expect(page.body).toContain('Les serveurs classés selon les votes de leurs joueurs en novembre 2026 (UTC).')
    expect(page.body).toContain('← octobre 2026')
    expect(page.body).toContain('<a href="/dashboard">Ajouter votre serveur</a>')
    expect(page.body).toContain(`<span class="server-row-votes"><strong>0</strong> vote</span>`)
    expect(page.body).toContain('<meta property="og:locale" content="fr_FR">')
    // The scripts get the French messages and formats.
    expect(page.body).toContain('<script type="application/json" id="vl-i18n">{"lang":"fr","name":"Français","locale":"fr-FR"')
    expect(page.body).not.toContain('Minecraft server ranking')
  })

  test('a month whose name starts with a vowel reads as French in the title and the descriptions (never "de octobre")', async () => {
    const { get } = await frenchSite()
    for (const [month, name] of [['2026-10', 'octobre 2026'], ['2026-04', 'avril 2026'], ['2026-08', 'août 2026']]) {
      const page = await get(`/?month=${month}`)
      expect({ month, title: page.body.match(/<title>([^<]*)<\/title>/)![1] }).toEqual({ month, title: `Classement${NBSP}: ${name} · My Server List` })
      expect(page.body).toContain(`<meta name="description" content="Le classement des serveurs Minecraft en ${name}, selon les votes des joueurs.">`)
    }
    // The current month's description, on 1 October.
    const rt = testRuntime({ site: { language: 'fr' } }, Date.UTC(2026, 9, 1, 12))
    const page = await call(await testApp(rt), 'GET', '/')
    expect(await page.text()).toContain('<meta name="description" content="Les meilleurs serveurs Minecraft en octobre 2026, classés par les votes')
  })

  test('every language version has its address: hreflang alternates, and each version is its own canonical page', async () => {
    const { get } = await frenchSite()
    const page = await get('/?month=2026-10')
    expect(page.body).toContain('<link rel="canonical" href="https://liste.example.org/?month=2026-10">')
    expect(page.body).toContain('<link rel="alternate" hreflang="en" href="https://liste.example.org/?month=2026-10&amp;lang=en">')
    expect(page.body).toContain('<link rel="alternate" hreflang="fr" href="https://liste.example.org/?month=2026-10&amp;lang=fr">')
    expect(page.body).toContain('<link rel="alternate" hreflang="x-default" href="https://liste.example.org/?month=2026-10">')
    const english = await get('/?month=2026-10&lang=en')
    expect(english.body).toStartWith('<!doctype html>\n<html lang="en">')
    expect(english.body).toContain('<h1>Minecraft server ranking, October 2026</h1>')
    expect(english.body).toContain('<link rel="canonical" href="https://liste.example.org/?month=2026-10&amp;lang=en">')
  })

  test('the same site answers English to a browser that asks for it, by q-value, and French otherwise', async () => {
    const { get } = await frenchSite()
    expect((await get('/', { 'accept-language': 'en-US,en;q=0.9' })).body).toContain('<h1>Minecraft server ranking</h1>')
    expect((await get('/', { 'accept-language': 'de-DE, en;q=0.5, fr;q=0.8' })).body).toContain('<h1>Classement des serveurs Minecraft</h1>')
    expect((await get('/', { 'accept-language': 'ja' })).body).toContain('<html lang="fr">')
  })

  test('a language cookie that is not percent-encoded UTF-8 is no choice: the pages answer in the negotiated language', async () => {
    const { get, server } = await frenchSite()
    for (const path of ['/', `/serveur/${server.slug}`, `/serveur/${server.slug}/voter`, '/nothing/here']) {
      const page = await get(path, { cookie: 'theme=dark; votelist_lang=%E0%A4%A; session=x', 'accept-language': 'en' })
      expect({ path, status: page.status, lang: page.headers.get('content-language') }).toEqual({ path, status: path === '/nothing/here' ? 404 : 200, lang: 'en' })
      expect(page.body).toContain('<html lang="en">')
    }
  })

  test('the switcher remembers the choice in a cookie and brings the visitor back; only to this site', async () => {
    const { get, server } = await frenchSite()
    const page = await get(`/serveur/${server.slug}?month=2026-10`)
    expect(page.body).toContain(`<nav class="lang-switch" aria-label="Langue"><a lang="en" hreflang="en" rel="nofollow" href="/language?set=en&amp;back=%2Fserveur%2F${server.slug}%3Fmonth%3D2026-10">English</a><span aria-hidden="true"> · </span><span lang="fr" aria-current="true">Français</span></nav>`)

    const chosen = await get(`/language?set=en&back=${encodeURIComponent(`/serveur/${server.slug}?month=2026-10&lang=fr`)}`)
    expect(chosen.status).toBe(303)
    // ?lang= in the page left is dropped, or it would outrank the choice just made.
    expect(chosen.headers.get('location')).toBe(`/serveur/${server.slug}?month=2026-10`)
    expect(chosen.headers.get('set-cookie')).toBe('votelist_lang=en; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly; Secure')
    const english = await get(`/serveur/${server.slug}`, { cookie: 'votelist_lang=en', 'accept-language': 'fr' })
    expect(english.body).toContain('<h2 id="join">Join the server</h2>')

    for (const back of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '']) {
      expect((await get(`/language?set=en&back=${encodeURIComponent(back)}`)).headers.get('location')).toBe('/')
    }
    const unknown = await get('/language?set=xx&back=/')
    expect(unknown.status).toBe(303)
    expect(unknown.headers.get('set-cookie')).toBeNull()
  })

  test('the vote page, the thank-you and a refusal are in French, with French dates and typography', async () => {
    const { get, app, server } = await frenchSite()
    const form = (pseudo: string, address: string) => call(app, 'POST', `/serveur/${server.slug}/voter`, {
      body: `pseudo=${pseudo}`, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'x-forwarded-for': address },
    })
    const page = await get(`/serveur/${server.slug}/voter`)
    expect(page.body).toContain('<label for="pseudo">Votre pseudo</label>')
    expect(page.body).toContain('<button type="submit" class="button-primary">Voter</button>')
    expect(page.body).toContain('<h1>Voter pour Vallée Émeraude</h1>')
    expect(page.body).toContain('puis 2 heures d’attente avant le suivant')

    const voted = await form('Steve', '203.0.113.7')
    const thanks = (await get(voted.headers.get('location')!)).body
    expect(thanks).toContain(`<h2 id="thanks">Merci, Steve${NNBSP}!</h2>`)
    expect(thanks).toContain('Votre vote pour Vallée Émeraude a bien été enregistré le 22 novembre 2026 à 12:00 UTC.')
    expect(thanks).toContain('Vous pourrez revoter le <time datetime="2026-11-22T14:00:00.000Z">22 novembre 2026 à 14:00 UTC</time>')

    const again = await form('Alex', '203.0.113.7')
    expect(again.status).toBe(429)
    expect(await again.text()).toContain('Vous avez déjà voté pour Vallée Émeraude récemment')
    const bad = await form('%3Cb%3E', '203.0.113.8')
    expect(await bad.text()).toContain(`<p>Votre pseudo doit faire de 3 à 16 caractères${NBSP}: lettres, chiffres ou tirets bas (_).</p>`)
  })

  // "Version" is feminine and "Modes de jeu" plural: what is not given agrees with each.
  test('the server page says what its owner did not give in words that agree with each fact', async () => {
    const { get, server } = await frenchSite()
    const page = (await get(`/serveur/${server.slug}`)).body
    expect(page).toContain('<dt>Version</dt><dd><span class="muted">non précisée</span></dd>')
    expect(page).toContain('<dt>Modes de jeu</dt><dd><span class="muted">non précisés</span></dd>')
    expect(page).toContain('<dt>Site web</dt><dd><span class="muted">aucun</span></dd>')
    const english = (await get(`/serveur/${server.slug}?lang=en`)).body
    expect(english).toContain('<dt>Version</dt><dd><span class="muted">not given</span></dd>')
    expect(english).toContain('<dt>Game modes</dt><dd><span class="muted">not given</span></dd>')
  })

  // One server on the page (a search that finds one, the last page holding one) is one server, not
  // "Serveurs 1 à 1 sur 1".
  test('the ranking\'s caption names one server in the singular, a range in the plural', async () => {
    const { get, rt } = await frenchSite()
    await seedServer(rt, { name: 'Autre Monde', host: 'autre.example.com' }, 'autre@example.com')
    const caption = async (path: string) => (await get(path)).body.match(/<p class="muted list-caption" id="list-caption">([^<]*)<\/p>/)?.[1]
    expect(await caption('/')).toBe('Serveurs 1 à 2 sur 2, par votes en novembre 2026')
    expect(await caption('/?search=vall')).toBe('Serveur trouvé 1 sur 1, par votes en novembre 2026')
    expect(await caption('/?search=vall&lang=en')).toBe('Matching server 1 of 1, by votes in November 2026')
    expect(await caption('/?search=e&lang=en')).toBe('Matching servers 1–2 of 2, by votes in November 2026')
  })

  test('error pages speak French: a bad address, an unknown server, an unknown page', async () => {
    const { get, rt } = await frenchSite()
    const month = await get('/?month=2026-13')
    expect(month.status).toBe(400)
    expect(month.body).toContain('<h1>Cette adresse contient une erreur</h1>')
    expect(month.body).toContain('Le mois doit s’écrire AAAA-MM (par exemple 2026-11), sans dépasser le mois en cours.')
    const mode = await get('/?mode=knitting')
    expect(mode.status).toBe(400)
    expect(mode.body).toContain(`<p>Le mode de jeu doit être l’un de ceux du site${NBSP}: ${rt.config.servers.modes.join(', ')}.</p>`)
    const far = await get('/?page=1000000')
    expect(far.status).toBe(400)
    expect(far.body).toContain(`Le numéro de page est un nombre entier de 1 à 999${NNBSP}999.`)
    const server = await get('/serveur/nobody')
    expect(server.status).toBe(404)
    expect(server.body).toContain('<h1>Page introuvable</h1>')
    expect(server.body).toContain('Aucun serveur listé n’a cette adresse. Elle a peut-être été supprimée')
    const page = await get('/nothing/here')
    expect(page.status).toBe(404)
    expect(page.body).toContain('Cette page n’existe pas. Elle a peut-être été supprimée')
  })

  test('the badge is in the site\'s language unless its address asks for another; it does not vary by reader', async () => {
    const { get, server } = await frenchSite()
    const badge = await get(`/api/v1/servers/${server.slug}/badge.svg`, { 'accept-language': 'en' })
    expect(badge.body).toContain('>Votez pour nous · #1</text>')
    expect(badge.headers.get('vary')).toBeNull()
    expect((await get(`/api/v1/servers/${server.slug}/badge.svg?lang=en`)).body).toContain('>Vote for us · #1</text>')
    expect((await get(`/api/v1/servers/${server.slug}/badge.svg?lang=xx`)).status).toBe(400)
  })

  test('the dashboard\'s page is in the visitor\'s language, with its catalog for the scripts', async () => {
    const { get } = await frenchSite()
    const fr = await get('/dashboard')
    expect(fr.body).toStartWith('<!doctype html>\n<html lang="fr">')
    expect(fr.body).toContain('<title>Mes serveurs · My Server List</title>')
    expect(fr.body).toContain('{"lang":"fr","name":"Français","locale":"fr-FR","messages":{')
    expect(fr.headers.get('vary')).toBe('Accept-Language, Cookie')
    const en = await get('/dashboard/servers/new', { 'accept-language': 'en' })
    expect(en.body).toContain('<title>My servers · My Server List</title>')
    expect(en.headers.get('content-language')).toBe('en')
  })

  test('site.language accepts the languages that have a catalog, and names the key otherwise', () => {
    expect(() => testRuntime({ site: { language: 'de' } })).toThrow('site.language: must be one of "en", "fr"')
    expect(testRuntime().config.site.language).toBe('en')
  })
})

describe('formats', () => {
  const fr = translatorFor('fr')
  const en = translatorFor('en')
  const at = Date.UTC(2026, 10, 22, 14, 5, 30)

  test('dates, months, times and numbers through Intl, the same way on every page', () => {
    expect([en.date(at), fr.date(at)]).toEqual(['22 November 2026', '22 novembre 2026'])
    expect([en.month('2026-02'), fr.month('2026-02')]).toEqual(['February 2026', 'février 2026'])
    expect([en.dateTime(at), fr.dateTime(at)]).toEqual(['22 November 2026, 14:05 UTC', '22 novembre 2026 à 14:05 UTC'])
    expect([en.dateTime(at, { short: true, seconds: true }), fr.dateTime(at, { short: true, seconds: true })]).toEqual(['22 Nov, 14:05:30', '22 nov. à 14:05:30'])
    expect([en.number(1234567.25), fr.number(1234567.25)]).toEqual(['1,234,567.3', `1${NNBSP}234${NNBSP}567,3`])
    expect(en.percent(0.995)).toBe('99.5%')
    expect(fr.percent(0.995)).toMatch(/^99,5[\u00a0\u202f]%$/)
    expect(en.duration(42)).toBe('42 ms')
    expect(fr.duration(1500)).toMatch(/^1,5[\u00a0\u202f ]s$/)
    expect(en.relative(at + 120_000, at)).toBe('in 2 min')
    expect(fr.relative(at - 300_000, at)).toMatch(/^il y a 5[\u00a0 ]min$/)
  })

  test('counts take the form their language gives them; elements are placed, never parsed', () => {
    expect([fr.n('row.votes', 0), fr.n('row.votes', 1), fr.n('row.votes', 2), en.n('row.votes', 0), en.n('row.votes', 1)])
      .toEqual(['0 vote', '1 vote', '2 votes', '0 votes', '1 vote'])
    expect([fr.n('row.rank', 1), fr.n('row.rank', 2)]).toEqual(['1er', '2e'])
    // A task of the admin's Site page run once a unit is run every hour, not "every 1 h".
    const every = (tr: typeof fr) => (['dash.site.everyHours', 'dash.site.everyMinutes', 'dash.site.everySeconds'] as const).flatMap((k) => [tr.n(k, 1), tr.n(k, 5)])
    expect(every(en)).toEqual(['every hour', 'every 5 h', 'every minute', 'every 5 min', 'every second', 'every 5 s'])
    expect(every(fr)).toEqual(['toutes les heures', 'toutes les 5 h', 'toutes les minutes', 'toutes les 5 min', 'toutes les secondes', 'toutes les 5 s'])
    const link = { tag: 'a' }
    expect(fr.parts('ranking.noPage', { page: 3, link })).toEqual(['Il n’y a pas de page ', '3', '. ', link, '.'])
  })
})
