import { describe, expect, test } from 'bun:test'
import { chooseLanguage, fromAcceptLanguage } from '../../src/i18n/negotiate.ts'

// Which language a request gets: ?lang=, then the switcher's cookie, then Accept-Language by its
// q-values, then site.language; a language the site has no catalog for is skipped at each step.

const request = (path = '/', headers: Record<string, string> = {}) => new Request(`http://localhost${path}`, { headers })

describe('Accept-Language', () => {
  test('the first range the site has, by q-value, then by order', () => {
    expect(fromAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5', 'en')).toBe('fr')
    expect(fromAcceptLanguage('en-US,en;q=0.9,fr;q=0.8', 'fr')).toBe('en')
    expect(fromAcceptLanguage('de;q=1, fr;q=0.4, en;q=0.7', 'fr')).toBe('en')
    expect(fromAcceptLanguage('fr;q=0.5, en;q=0.5', 'en')).toBe('fr')
    expect(fromAcceptLanguage('FR-ca', 'en')).toBe('fr')
  })

  test('q=0 refuses a language; * is any, which is the site\'s own; nothing known is no answer', () => {
    expect(fromAcceptLanguage('fr;q=0, en', 'fr')).toBe('en')
    expect(fromAcceptLanguage('fr;q=0, *;q=0.1', 'fr')).toBe('fr')
    expect(fromAcceptLanguage('de, ja;q=0.8', 'en')).toBeNull()
    expect(fromAcceptLanguage('', 'en')).toBeNull()
    expect(fromAcceptLanguage(null, 'en')).toBeNull()
    expect(fromAcceptLanguage('fr;q=abc, en;q=0.1', 'fr')).toBe('en')
  })
})

describe('chooseLanguage', () => {
  test('?lang= first, then the cookie, then Accept-Language, then site.language', () => {
    const all = { cookie: 'votelist_session=x; votelist_lang=en', 'accept-language': 'fr' }
    expect(chooseLanguage(request('/?lang=fr', all), 'en')).toBe('fr')
    expect(chooseLanguage(request('/', all), 'fr')).toBe('en')
    expect(chooseLanguage(request('/', { 'accept-language': 'fr, en;q=0.5' }), 'en')).toBe('fr')
    expect(chooseLanguage(request('/', { 'accept-language': 'de' }), 'fr')).toBe('fr')
    expect(chooseLanguage(request('/'), 'fr')).toBe('fr')
  })

  test('values the site has no catalog for are passed over', () => {
    expect(chooseLanguage(request('/?lang=xx', { cookie: 'votelist_lang=zz', 'accept-language': 'en' }), 'fr')).toBe('en')
    expect(chooseLanguage(request('/?lang=', { cookie: 'votelist_lang=' }), 'fr')).toBe('fr')
  })
})
