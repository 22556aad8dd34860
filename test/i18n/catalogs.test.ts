import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AUDIT_ACTIONS } from '../../src/audit/schema.ts'
import { REASONS } from '../../src/http/errors.ts'
import { CATALOG_DIR, loadCatalogs, REFERENCE_LANGUAGE } from '../../src/i18n/catalogs.ts'
import { registerSiteWork } from '../../src/site.ts'
import { cleanupTemp, tempDir, testRuntime } from '../helpers.ts'

// The catalogs of web/i18n, as their files say (not merged with English): every language says
// every message, in the same shape, with the same placeholders; the French reads as French is
// printed. Adding a language is adding its file, and these tests then check it too.

afterAll(cleanupTemp)

type Message = string | Record<string, string>
interface RawCatalog { name: string; locale: string; messages: Record<string, Message> }

const files = readdirSync(CATALOG_DIR).filter((f) => f.endsWith('.json')).sort()
const raw = new Map(files.map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(CATALOG_DIR, f), 'utf8')) as RawCatalog]))
const reference = raw.get(REFERENCE_LANGUAGE)!
const others = [...raw].filter(([lang]) => lang !== REFERENCE_LANGUAGE)

const placeholders = (m: Message) =>
  [...new Set((typeof m === 'string' ? [m] : Object.values(m)).flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((x) => x[1])))].sort()

describe('the catalogs (web/i18n)', () => {
  test('there are at least English and French, each named in its own language with a locale Intl knows', () => {
    expect([...raw.keys()]).toContain('en')
    expect([...raw.keys()]).toContain('fr')
    for (const [lang, c] of raw) {
      expect({ lang, name: typeof c.name, locale: Intl.getCanonicalLocales(c.locale)[0] }).toEqual({ lang, name: 'string', locale: c.locale })
      expect(new Intl.DateTimeFormat(c.locale).resolvedOptions().locale.split('-')[0]).toBe(lang.split('-')[0])
    }
  })

  test('no catalog lacks a message of English, and none has one English does not know', () => {
    for (const [lang, c] of others) {
      const missing = Object.keys(reference.messages).filter((k) => !(k in c.messages))
      const unknown = Object.keys(c.messages).filter((k) => !(k in reference.messages))
      expect({ lang, missing, unknown }).toEqual({ lang, missing: [], unknown: [] })
    }
  })

  // An error's text may use the API's message and its Retry-After, or neither (web/assets/translate.js,
  // errorText): English mostly shows the API's own words, another language its own sentence.
  test('each message has the shape and the placeholders of the English one (an error: any of {message}, {seconds}, {allowed})', () => {
    for (const [lang, c] of others) {
      const wrong = Object.entries(reference.messages).filter(([k, en]) => {
        const m = c.messages[k]
        if (m === undefined || typeof m !== typeof en) return true
        if (k.startsWith('error.')) return placeholders(m).some((p) => p !== 'message' && p !== 'seconds' && p !== 'allowed')
        return placeholders(m).join() !== placeholders(en).join()
      }).map(([k]) => k)
      expect({ lang, wrong }).toEqual({ lang, wrong: [] })
    }
  })

  // "other" is the form for any count a language has no form of its own for (French "many", for
  // 1 000 000, reads as "other" with digits).
  test('a message with a count has an "other" form and only forms its language counts by (Intl.PluralRules)', () => {
    for (const [lang, c] of raw) {
      const categories = new Intl.PluralRules(c.locale).resolvedOptions().pluralCategories.slice().sort()
      const wrong = Object.entries(c.messages)
        .filter(([, m]) => typeof m === 'object' && (!('other' in m) || Object.keys(m).some((f) => !categories.includes(f as Intl.LDMLPluralRule))))
        .map(([k, m]) => `${k}: ${Object.keys(m as object).join(', ')}`)
      expect({ lang, categories, wrong }).toEqual({ lang, categories, wrong: [] })
    }
  })

  test('no message holds markup: elements are parameters, placed by the code', () => {
    for (const [lang, c] of raw) {
      const withMarkup = Object.entries(c.messages).filter(([, m]) => (typeof m === 'string' ? [m] : Object.values(m)).some((t) => /<[a-z/!]/i.test(t)))
        .map(([k]) => k)
      expect({ lang, withMarkup }).toEqual({ lang, withMarkup: [] })
    }
  })

  test('French typography: a no-break space before : ; ! ? and inside « », never an ordinary one; the apostrophe ’', () => {
    const texts = Object.entries(raw.get('fr')!.messages).flatMap(([k, m]) => (typeof m === 'string' ? [[k, m]] : Object.values(m).map((t) => [k, t])))
    const bad = texts.filter(([, t]) =>
      // An ordinary space, or none, before the high punctuation that ends a phrase; URLs
      // ("https://"), times and code ("motd=") have no space after the sign and are left alone.
      / [:;!?»]/.test(t) || /« /.test(t) || /[^\s\u00a0\u202f][;!?»](\s|$)/.test(t) || /[^\s\u00a0\u202f\d]:(\s|$)/.test(t) || /«[^\u00a0]/.test(t) || t.includes("'"))
    expect(bad).toEqual([])
  })

  test('the English catalog says "{message}" for the errors it shows in the API\'s own words, and a sentence otherwise', () => {
    const errors = Object.entries(reference.messages).filter(([k]) => k.startsWith('error.'))
    expect(errors.length).toBeGreaterThan(20)
    for (const [k, m] of errors) expect({ k, ok: typeof m === 'string' && (m === '{message}' || /^[A-Z]/.test(m)) }).toEqual({ k, ok: true })
  })

  // A refusal the API names with error.reason is worded by `error.<CODE>.<REASON>`
  // (web/assets/translate.js, errorText), not by its code's catch-all around the English message.
  test('every reason the API gives a refusal has its words in the catalogs', () => {
    const keys = Object.entries(REASONS).map(([reason, code]) => `error.${code}.${reason}`)
    expect(keys.filter((k) => !(k in reference.messages))).toEqual([])
  })

  test('every action of the audit log and every scheduled task has its words in the catalogs', () => {
    const rt = testRuntime()
    registerSiteWork(rt)
    const keys = [...AUDIT_ACTIONS.map((a) => `dash.audit.action.${a}`), ...rt.scheduler.tasks().map((t) => `dash.task.${t.id}`)]
    expect(keys.filter((k) => !(k in reference.messages))).toEqual([])
  })

  test('a new language is one more file; what it does not say yet is said in English', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'en.json'), JSON.stringify(reference))
    writeFileSync(join(dir, 'de.json'), JSON.stringify({ name: 'Deutsch', locale: 'de-DE', messages: { 'common.vote': 'Abstimmen' } }))
    const loaded = loadCatalogs(dir)
    expect([...loaded.keys()]).toEqual(['en', 'de'])
    const de = loaded.get('de')!
    expect(de.messages['common.vote']).toBe('Abstimmen')
    expect(de.messages['ranking.title']).toBe(reference.messages['ranking.title'])
    expect(Object.keys(de.messages).length).toBe(Object.keys(reference.messages).length)
    writeFileSync(join(dir, 'Deutsch.json'), '{}')
    expect(() => loadCatalogs(dir)).toThrow('named by its language code')
  })
})
